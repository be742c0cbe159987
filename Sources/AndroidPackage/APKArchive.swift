import CZip

/// An APK (a zip) opened read-only with libzip: members read into memory with limits, nothing
/// extracted to disk.
final class APKArchive {
    let path: String
    private let archive: OpaquePointer
    /// Every member's name, in the archive's order.
    private(set) var names: [String] = []
    private var indexes: [String: UInt64] = [:]

    init(path: String) throws(APKReadError) {
        self.path = path
        var code: Int32 = 0
        guard let archive = czip_open_read(path, &code) else {
            throw APKReadError(source: path, code: .notAnArchive, reason: "is not a zip archive, as an APK is (libzip: \(Self.message(code)))")
        }
        self.archive = archive
        let count = czip_entry_count(archive)
        guard count >= 0 else {
            throw APKReadError(source: path, code: .notAnArchive, reason: "cannot be read as a zip (libzip: \(String(cString: czip_archive_error(archive))))")
        }
        for index in 0..<UInt64(count) {
            guard let name = czip_entry_name(archive, index) else { continue }
            let text = String(cString: name)
            names.append(text)
            if indexes[text] == nil { indexes[text] = index }
        }
    }

    deinit { czip_discard(archive) }

    func contains(_ name: String) -> Bool { indexes[name] != nil }

    /// What errors call a member: `app.apk: AndroidManifest.xml`.
    func source(of name: String) -> String { "\(path): \(name)" }

    /// The whole member `name`, refused when its header declares more than `limit` bytes, when it
    /// inflates to more than it declares (a zip bomb, a lying header), or ends before it.
    func read(_ name: String, limit: Int, what: String) throws(APKReadError) -> [UInt8] {
        let source = source(of: name)
        guard let index = indexes[name] else {
            throw APKReadError(source: source, code: .missingMember, reason: "is not in the archive, and every APK has one")
        }
        var declared: UInt64 = 0
        guard czip_entry_size(archive, index, &declared) == 0 else {
            throw APKReadError(source: source, code: .inconsistentMember, reason: "has no size in its zip header (libzip: \(String(cString: czip_archive_error(archive))))")
        }
        guard declared <= UInt64(limit) else {
            throw APKReadError(source: source, code: .overLimit, reason: "is \(declared) bytes as its zip header declares, more than the \(limit) read for \(what)")
        }
        guard let file = czip_open_entry(archive, index) else {
            throw APKReadError(source: source, code: .inconsistentMember, reason: "cannot be opened (libzip: \(String(cString: czip_archive_error(archive))))")
        }
        defer { czip_close_entry(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // Never ask for more than one byte past what was declared: that byte is enough to know it lied.
            let wanted = min(chunk.count, Int(declared) + 1 - bytes.count)
            let got = chunk.withUnsafeMutableBytes { buffer in buffer.baseAddress.map { czip_read(file, $0, UInt64(wanted)) } ?? -1 }
            guard got >= 0 else {
                throw APKReadError(source: source, code: .inconsistentMember, reason: "cannot be decompressed (libzip: \(String(cString: czip_entry_error(file))))")
            }
            if got == 0 { break }
            bytes += chunk[0..<Int(got)]
            guard bytes.count <= Int(declared) else {
                throw APKReadError(source: source, code: .inconsistentMember, reason: "inflates to more than the \(declared) bytes its zip header declares")
            }
        }
        guard bytes.count == Int(declared) else {
            throw APKReadError(source: source, code: .inconsistentMember, reason: "ends after \(bytes.count) bytes, before the \(declared) its zip header declares")
        }
        return bytes
    }

    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        czip_error_message(code, &buffer, buffer.count)
        return String(cString: buffer)
    }
}
