import Foundation
import Testing
@testable import Audit

@Suite struct ShardTests {
    /// A list as people write them: mixed names, a few thousand lines.
    static let names: [String] = (1...3000).map { "app\($0).example\($0 % 7).com" } + ["example.com", "www.example.com", "xn--bcher-kva.example"]

    @Test func fnv1aMatchesThePublishedTestVectors() {
        // From the FNV reference (draft-eastlake-fnv): 64-bit FNV-1a.
        #expect(Shard.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func shardsArePinnedAcrossVersionsAndMachines() {
        // Shard reports of one night are merged and compared with the same shard's last run: a change
        // to the hash, the case folding or the 1-based mapping would silently move domains between
        // shards. Values computed independently (Python, FNV-1a 64 over the ASCII name, mod N, + 1).
        let pinned: [(String, [Int])] = [
            ("example.com", [1, 3, 3, 7, 7]),
            ("www.example.com", [2, 3, 4, 4, 12]),
            ("xn--bcher-kva.example", [1, 2, 1, 5, 5]),
            ("apple.com", [1, 3, 1, 1, 1]),
        ]
        for (name, shards) in pinned {
            #expect([2, 3, 4, 8, 16].map { Shard.shardIndex(of: name, count: $0) } == shards, "\(name)")
        }
        // The Unicode form of a name is never hashed: DomainList hands the ASCII form over.
        let list = DomainList.parse(arguments: ["BÜCHER.example."])
        #expect(list.entries.map { Shard.shardIndex(of: $0.name.ascii, count: 8) } == [5])
    }

    @Test(arguments: [1, 2, 3, 4, 7, 16])
    func everyDomainIsInExactlyOneShard(count: Int) throws {
        let shards = (1...count).map { Shard(index: $0, count: count)! }
        for name in Self.names {
            #expect(shards.filter { $0.contains(name) }.count == 1, "\(name)")
        }
        // And no shard is empty or lopsided for a list this long.
        for shard in shards {
            let size = Self.names.filter { shard.contains($0) }.count
            #expect(size > Self.names.count / count / 2, "shard \(shard) has \(size)")
        }
    }

    @Test func addingOtherLinesMovesNoDomain() throws {
        let before = DomainList.parse(Data(Self.names.prefix(500).joined(separator: "\n").utf8), file: "domains.txt")
        let grown = ["new1.example.org", "new2.example.org"] + Self.names.prefix(500).reversed() + ["new3.example.org"]
        let after = DomainList.parse(Data(grown.joined(separator: "\n").utf8), file: "domains.txt")
        for index in 1...5 {
            let shard = try #require(Shard(index: index, count: 5))
            let old = Set(shard.subset(of: before).entries.map(\.name.ascii))
            let new = Set(shard.subset(of: after).entries.map(\.name.ascii))
            #expect(old.isSubset(of: new))
            #expect(new.subtracting(old).isSubset(of: ["new1.example.org", "new2.example.org", "new3.example.org"]))
        }
    }

    @Test func caseDoesNotMatterAndOneShardIsEverything() throws {
        let count = 9
        for name in Self.names.prefix(200) {
            #expect(Shard.shardIndex(of: name, count: count) == Shard.shardIndex(of: name.uppercased(), count: count))
            #expect(try Shard(parsing: "1/1").contains(name))
        }
    }

    @Test func subsetKeepsInputProblemsAndFiltersDuplicates() throws {
        let list = DomainList.parse(Data("a.example\nnot a domain\nb.example\nA.example\n".utf8), file: "domains.txt")
        let shardOfA = Shard.shardIndex(of: "a.example", count: 2)
        let mine = try #require(Shard(index: shardOfA, count: 2))
        let other = try #require(Shard(index: 3 - shardOfA, count: 2))
        #expect(mine.subset(of: list).duplicates.count == 1)
        #expect(other.subset(of: list).duplicates.isEmpty)
        #expect(mine.subset(of: list).problems == list.problems)
        #expect(other.subset(of: list).problems == list.problems)
        #expect(mine.subset(of: list).entries.count + other.subset(of: list).entries.count == list.entries.count)
    }

    /// A list read for a shard holds only that shard's domains, and is the subset of the whole list
    /// read first: the same entries, problems and repeats, the other shards' domains only counted.
    @Test(arguments: [1, 2, 3, 5])
    func aListReadForAShardIsItsSubset(count: Int) throws {
        var text = "not a domain\n"
        for (position, name) in Self.names.prefix(300).enumerated() {
            text += "\(name)\n"
            if position % 7 == 0 { text += "\(name.uppercased()) app=ABQ7KM3X2P.com.exemplo.app\n" }
            if position % 11 == 0 { text += "\(name)\n" }
        }
        let data = Data(text.utf8)
        let whole = DomainList.parse(data, file: "domains.txt")
        var kept = 0
        for index in 1...count {
            let shard = try #require(Shard(index: index, count: count))
            let read = DomainList.parse(data, file: "domains.txt", keeping: shard)
            let subset = shard.subset(of: whole)
            #expect(read.entries == subset.entries)
            #expect(read.problems == whole.problems)
            #expect(read.duplicates == subset.duplicates)
            #expect(read.inOtherShards == whole.entries.count - read.entries.count)
            #expect(subset.inOtherShards == read.inOtherShards)
            #expect(shard.subset(of: read) == read)
            kept += read.entries.count
        }
        #expect(kept == whole.entries.count)
    }

    @Test(arguments: ["1/1", "1/4", "4/4", "12/100"])
    func parsesKOverN(text: String) throws {
        let shard = try Shard(parsing: text)
        #expect(shard.description == text)
    }

    @Test(arguments: [
        ("0/4", "K counts from 1"),
        ("5/4", "K must be at most N"),
        ("1/0", "N must be at least 1"),
        ("1/2147483648", "N must be at most 2147483647"),
        ("0/0", "N must be at least 1"),
        ("", "expected K/N"),
        ("2", "expected K/N"),
        ("1/2/3", "expected K/N"),
        ("a/b", "expected K/N"),
        ("-1/4", "expected K/N"),
        ("+1/4", "expected K/N"),
        ("1 /4", "expected K/N"),
        ("1/", "expected K/N"),
        ("١/٢", "expected K/N"),
    ])
    func rejectsBadSyntax(text: String, reason: String) {
        #expect {
            try Shard(parsing: text)
        } throws: { error in
            (error as? ShardSyntaxError)?.reason.contains(reason) == true
        }
    }

    @Test func initRejectsOutOfRange() {
        #expect(Shard(index: 0, count: 3) == nil)
        #expect(Shard(index: 4, count: 3) == nil)
        #expect(Shard(index: 1, count: 0) == nil)
        #expect(Shard(index: 3, count: 3) != nil)
    }
}
