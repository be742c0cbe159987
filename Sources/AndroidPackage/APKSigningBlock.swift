/// The APK Signing Block (APK Signature Scheme v2 and v3, source.android.com "APK Signature Scheme
/// v2"): found from the end of the zip (End of Central Directory → the central directory's offset →
/// the 24 bytes before it: the block's size and the magic "APK Sig Block 42"), then ID-value pairs,
/// of which 0x7109871a (v2) and 0xf05368c0 (v3) hold the signers. The signatures are not verified
/// here (apksigner and the device do that); what is read is which certificates the APK is signed with.
public enum APKSigningBlock {
    static let v2ID: UInt32 = 0x7109_871a
    static let v3ID: UInt32 = 0xf053_68c0
    static let magic = Array("APK Sig Block 42".utf8)
    static let endOfCentralDirectorySignature: UInt32 = 0x0605_4b50
    /// The End of Central Directory record without its comment, and the longest comment after it.
    static let endOfCentralDirectorySize = 22
    static let maximumCommentSize = 0xffff

    /// The signers of each scheme in the block, nil when the APK has no signing block (a v1-only APK).
    public static func signers(in file: APKBytes, limits: APKReadLimits) throws(APKReadError) -> [APKSigning.Scheme: [APKSigning.Signer]]? {
        func fail(_ reason: String) -> APKReadError { APKReadError(source: file.name, code: .malformedSigningBlock, reason: reason) }
        guard file.size >= UInt64(endOfCentralDirectorySize) else { return nil }
        let tailCount = Int(min(file.size, UInt64(endOfCentralDirectorySize + maximumCommentSize)))
        let tailStart = file.size - UInt64(tailCount)
        let tail = LittleEndianReader(try file.read("its End of Central Directory", at: tailStart, count: tailCount))
        // The record whose comment length reaches exactly to the end of the file, nearest the end first.
        var record: Int?
        var candidate = tailCount - endOfCentralDirectorySize
        while candidate >= 0 {
            if tail.u32(at: candidate) == endOfCentralDirectorySignature, let comment = tail.u16(at: candidate + 20),
               Int(comment) == tailCount - candidate - endOfCentralDirectorySize {
                record = candidate
                break
            }
            candidate -= 1
        }
        guard let record, let directorySize = tail.u32(at: record + 12), let directoryOffset32 = tail.u32(at: record + 16) else { return nil }
        // ZIP64 (an offset of 0xffffffff) is not used by APKs: apksigner does not write it.
        guard directoryOffset32 != 0xffff_ffff else { return nil }
        let directoryOffset = UInt64(directoryOffset32)
        let recordOffset = tailStart + UInt64(record)
        guard directoryOffset + UInt64(directorySize) <= recordOffset else {
            throw fail("has a central directory (\(directorySize) bytes at byte \(directoryOffset)) that runs past its End of Central Directory at byte \(recordOffset)")
        }
        guard directoryOffset >= 32 else { return nil }
        let footer = LittleEndianReader(try file.read("the APK Signing Block's footer", at: directoryOffset - 24, count: 24))
        guard Array(footer.bytes[8..<24]) == magic, let blockSize = footer.u64(at: 0) else { return nil }
        guard blockSize <= limits.signingBlockBytes else {
            throw APKReadError(source: file.name, code: .overLimit, reason: "has an APK Signing Block declaring \(blockSize) bytes, more than the \(limits.signingBlockBytes) read")
        }
        // The size counts everything after its first copy: the pairs, the second copy and the magic.
        guard blockSize >= 24, blockSize + 8 <= directoryOffset else {
            throw fail("has an APK Signing Block declaring \(blockSize) bytes, which does not fit before its central directory at byte \(directoryOffset)")
        }
        let blockStart = directoryOffset - (blockSize + 8)
        let block = LittleEndianReader(try file.read("the APK Signing Block", at: blockStart, count: Int(blockSize + 8)))
        guard block.u64(at: 0) == blockSize else {
            throw fail("has an APK Signing Block whose two size fields disagree (\(block.u64(at: 0) ?? 0) at byte \(blockStart), \(blockSize) before its magic)")
        }
        var pairs = LittleEndianReader(block.bytes, from: 8, to: block.bytes.count - 24)
        var found: [APKSigning.Scheme: [APKSigning.Signer]] = [:]
        while pairs.remaining > 0 {
            let at = pairs.position
            guard let length = pairs.readU64(), length >= 4, length <= UInt64(pairs.remaining), let id = pairs.readU32(),
                  let value = pairs.slice(Int(length) - 4) else {
                throw fail("has an ID-value pair at byte \(blockStart + UInt64(at)) of its APK Signing Block whose length runs past the block")
            }
            let scheme: APKSigning.Scheme
            switch id {
            case v2ID: scheme = .v2
            case v3ID: scheme = .v3
            default: continue
            }
            guard found[scheme] == nil else { throw fail("has two APK Signature Scheme \(scheme.rawValue) blocks") }
            found[scheme] = try signerList(value, scheme: scheme, limits: limits, source: file.name, fail: fail)
        }
        return found
    }

    /// The length-prefixed sequence of signers of one scheme's block.
    private static func signerList(_ value: LittleEndianReader, scheme: APKSigning.Scheme, limits: APKReadLimits, source: String,
                                   fail: (String) -> APKReadError) throws(APKReadError) -> [APKSigning.Signer] {
        let name = "its APK Signature Scheme \(scheme.rawValue) block"
        var value = value
        guard var list = value.lengthPrefixed() else { throw fail("has \(name) whose signer list runs past the block") }
        var signers: [APKSigning.Signer] = []
        while list.remaining > 0 {
            guard signers.count < limits.signers else {
                throw APKReadError(source: source, code: .overLimit, reason: "has \(name) with more than \(limits.signers) signers")
            }
            let number = signers.count + 1
            guard var signer = list.lengthPrefixed(), var signedData = signer.lengthPrefixed() else {
                throw fail("has \(name) whose signer \(number) runs past its end")
            }
            // Signed data: digests, then certificates (each length-prefixed DER), then (v3) SDK range and attributes.
            guard signedData.lengthPrefixed() != nil, var certificates = signedData.lengthPrefixed() else {
                throw fail("has \(name) whose signer \(number) has signed data cut short before its certificates")
            }
            var chain: [SigningCertificate] = []
            while certificates.remaining > 0 {
                guard chain.count < limits.certificatesPerSigner else {
                    throw APKReadError(source: source, code: .overLimit, reason: "has \(name) whose signer \(number) carries more than \(limits.certificatesPerSigner) certificates")
                }
                guard let der = certificates.lengthPrefixed() else {
                    throw fail("has \(name) whose signer \(number) has a certificate running past its list")
                }
                chain.append(try SigningCertificate.decode(der.rest, source: source))
            }
            guard !chain.isEmpty else { throw fail("has \(name) whose signer \(number) carries no certificate") }
            var entry = APKSigning.Signer(certificates: chain)
            if scheme == .v3 {
                guard let minimum = signer.readU32(), let maximum = signer.readU32() else {
                    throw fail("has \(name) whose signer \(number) lacks its SDK range")
                }
                entry.minSdkVersion = minimum
                entry.maxSdkVersion = maximum
            }
            signers.append(entry)
        }
        guard !signers.isEmpty else { throw fail("has \(name) with no signer") }
        return signers
    }
}
