/// What a binary property list (`bplist00`) becomes when decoded, measured before Foundation decodes it.
///
/// An object of a binary property list is stored once and may be referred to from any number of
/// arrays, sets and dictionaries; decoding makes a value for every reference, so three levels of
/// arrays that each hold N references to the next level become N³ values (449 bytes, 151 MB).
/// This walks the object table from the top object, counting every object as often as it is
/// reached, with each shared object's count computed once; sums saturate above the limits, so no
/// count read from the file can overflow.
struct BinaryPropertyListSize: Equatable {
    /// Values made: every reference counted each time it is reached.
    var objects: Int
    /// Bytes of the strings and data among them, each counted as often as it is reached.
    var bytes: Int

    /// Why a binary property list is not measured.
    enum Problem: Error, Equatable {
        /// The structure is broken (a reference or offset outside the file, a cycle): Foundation
        /// would refuse it too.
        case malformed
        /// It expands past the objects or bytes allowed.
        case expandsPast(objects: Int, bytes: Int)
    }

    /// Whether `data` is a binary property list of the layout this measures (Foundation's `bplist0?`).
    static func isBinary(_ data: [UInt8]) -> Bool { data.starts(with: Array("bplist0".utf8)) }

    /// The expanded size of the binary property list `data`; throws once it passes `maxObjects`
    /// values or `maxBytes` bytes of strings and data.
    static func measure(_ data: [UInt8], maxObjects: Int, maxBytes: Int) throws(Problem) -> BinaryPropertyListSize {
        let table = try ObjectTable(data)
        // Iterative, so a deeply nested file cannot exhaust the stack: one frame per open container.
        struct Frame {
            var object: Int
            /// Where its references start, how many there are, and the next to visit.
            var first: Int
            var count: Int
            var next: Int
            var size: BinaryPropertyListSize
        }
        var measured: [Int: BinaryPropertyListSize] = [:]
        var open: Set<Int> = []
        var frames: [Frame] = []

        func add(_ size: BinaryPropertyListSize, to total: inout BinaryPropertyListSize) throws(Problem) {
            // Both stay at most a limit plus a limit, far from overflow.
            total.objects += size.objects
            total.bytes += size.bytes
            guard total.objects <= maxObjects, total.bytes <= maxBytes else {
                throw .expandsPast(objects: maxObjects, bytes: maxBytes)
            }
        }
        /// The size of `object` when it is a leaf (or already measured), else a new frame.
        func visit(_ object: Int) throws(Problem) -> BinaryPropertyListSize? {
            if let known = measured[object] { return known }
            guard open.insert(object).inserted else { throw .malformed }
            switch try table.contents(of: object) {
            case .leaf(let bytes):
                open.remove(object)
                let size = BinaryPropertyListSize(objects: 1, bytes: min(bytes, maxBytes + 1))
                measured[object] = size
                return size
            case .container(let first, let count):
                frames.append(Frame(object: object, first: first, count: count, next: 0, size: BinaryPropertyListSize(objects: 1, bytes: 0)))
                return nil
            }
        }

        var total = BinaryPropertyListSize(objects: 0, bytes: 0)
        if let leaf = try visit(table.topObject) { try add(leaf, to: &total) }
        while var frame = frames.last {
            if frame.next < frame.count {
                let child = try table.reference(frame.next, from: frame.first)
                frame.next += 1
                frames[frames.count - 1] = frame
                if let size = try visit(child) {
                    try add(size, to: &frames[frames.count - 1].size)
                }
                continue
            }
            frames.removeLast()
            open.remove(frame.object)
            measured[frame.object] = frame.size
            if frames.isEmpty {
                try add(frame.size, to: &total)
            } else {
                try add(frame.size, to: &frames[frames.count - 1].size)
            }
        }
        return total
    }
}

/// The trailer, offset table and object markers of a binary property list, read with every
/// offset and count checked against the file.
private struct ObjectTable {
    enum Contents {
        /// No references: a number, date, string, data, boolean, UID. Its string or data bytes.
        case leaf(bytes: Int)
        /// Where its references start in the file, and how many there are.
        case container(first: Int, count: Int)
    }

    let data: [UInt8]
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    let offsetTable: Int

    init(_ data: [UInt8]) throws(BinaryPropertyListSize.Problem) {
        self.data = data
        // Header (8 bytes), at least one object, the 32-byte trailer.
        guard data.count >= 8 + 1 + 32 else { throw .malformed }
        let trailer = data.count - 32
        offsetSize = Int(data[trailer + 6])
        referenceSize = Int(data[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { throw .malformed }
        let count = Self.unsigned(data, at: trailer + 8, size: 8)
        let top = Self.unsigned(data, at: trailer + 16, size: 8)
        let table = Self.unsigned(data, at: trailer + 24, size: 8)
        // Each bounded by the file's length before it becomes an Int.
        guard count > 0, count <= UInt64(data.count), top < count, table >= 9, table <= UInt64(trailer) else { throw .malformed }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTable = Int(table)
        let (tableBytes, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
        guard !overflow, tableBytes <= trailer - offsetTable else { throw .malformed }
    }

    /// The object number of a container's reference `number`, its references starting at `first`
    /// (checked to lie in the file by `contents(of:)`).
    func reference(_ number: Int, from first: Int) throws(BinaryPropertyListSize.Problem) -> Int {
        let value = Self.unsigned(data, at: first + number * referenceSize, size: referenceSize)
        guard value < UInt64(objectCount) else { throw .malformed }
        return Int(value)
    }

    /// What object `index` is: a leaf with its byte count, or a container with its references.
    func contents(of index: Int) throws(BinaryPropertyListSize.Problem) -> Contents {
        let entry = offsetTable + index * offsetSize
        let offset = Self.unsigned(data, at: entry, size: offsetSize)
        guard offset >= 8, offset < UInt64(offsetTable) else { throw .malformed }
        let start = Int(offset)
        let marker = data[start]
        let kind = marker >> 4
        switch kind {
        case 0x4, 0x5, 0x6, 0x7:
            // Data, ASCII string, UTF-16 string, UTF-8 string: a count, then the bytes.
            let (count, after) = try length(marker, at: start)
            let (bytes, overflow) = count.multipliedReportingOverflow(by: kind == 0x6 ? 2 : 1)
            guard !overflow, bytes <= offsetTable - after else { throw .malformed }
            return .leaf(bytes: bytes)
        case 0xA, 0xB, 0xC, 0xD:
            // Array, ordered set, set: count references; dictionary: count keys then count values.
            let (count, after) = try length(marker, at: start)
            let (slots, overflowSlots) = count.multipliedReportingOverflow(by: kind == 0xD ? 2 : 1)
            let (bytes, overflowBytes) = slots.multipliedReportingOverflow(by: referenceSize)
            guard !overflowSlots, !overflowBytes, bytes <= offsetTable - after else { throw .malformed }
            return .container(first: after, count: slots)
        default:
            return .leaf(bytes: 0)
        }
    }

    /// The count of a data, string or container marker (its low four bits, or 0xF and an integer
    /// object after it) and the position after it.
    private func length(_ marker: UInt8, at start: Int) throws(BinaryPropertyListSize.Problem) -> (count: Int, after: Int) {
        let low = Int(marker & 0x0F)
        if low != 0x0F { return (low, start + 1) }
        guard start + 1 < offsetTable else { throw .malformed }
        let integer = data[start + 1]
        guard integer >> 4 == 0x1 else { throw .malformed }
        let size = 1 << Int(integer & 0x0F)
        guard size <= 8, start + 2 + size <= offsetTable else { throw .malformed }
        let value = Self.unsigned(data, at: start + 2, size: size)
        guard value <= UInt64(data.count) else { throw .malformed }
        return (Int(value), start + 2 + size)
    }

    /// A big-endian unsigned integer of `size` bytes at `offset` (0 past the end, which callers have ruled out).
    static func unsigned(_ data: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for position in offset..<(offset + size) where position < data.count {
            value = value << 8 | UInt64(data[position])
        }
        return value
    }
}
