/// The tables of `history.sqlite` and the migrations between their versions (`PRAGMA user_version`).
/// Each migration takes the file from version `index` to `index + 1`; a file written by a newer
/// aasa-audit (a higher version) is left alone. docs/history.md describes every column.
enum HistorySchema {
    /// The version this build writes.
    static var version: Int { migrations.count }

    /// One object of a database's schema, as `sqlite_schema` lists it.
    struct Object: Hashable, Comparable {
        var type: String
        var name: String
        var table: String
        var sql: String?

        static func < (left: Object, right: Object) -> Bool { (left.type, left.name) < (right.type, right.name) }

        /// "trigger t (on run)", "view run".
        var shown: String { "\(type) \(name)" + (type == "table" || name == table ? "" : " (on \(table))") }
    }

    /// Refuses a file whose schema is not exactly what the migrations make at its version: a trigger,
    /// a view in place of a table, an extra table or index, a column added or changed. Such a file
    /// was not written by aasa-audit, and a statement on it could run for ever or write anywhere.
    /// A file of a newer version is left to `migrate` to refuse.
    static func check(_ database: Database) throws(DatabaseError) {
        let version = Int(try database.integer("PRAGMA user_version") ?? 0)
        guard version >= 0, version <= Self.version else { return }
        let found = try objects(of: database)
        let expected = try expectedObjects(version: version)
        guard found != expected else { return }
        let unknown = found.filter { object in !expected.contains(object) }
        let names = Set(found.map(\.name))
        let missing = expected.filter { !names.contains($0.name) }
        var parts = unknown.prefix(3).map { object in
            expected.contains { $0.name == object.name && $0.type == object.type } ? "\(object.shown) defined otherwise" : object.shown
        }
        if unknown.count > 3 { parts.append("\(unknown.count - 3) more") }
        if !missing.isEmpty { parts.append("no \(missing.prefix(3).map(\.shown).joined(separator: ", "))" + (missing.count > 3 ? " …" : "")) }
        throw DatabaseError(action: "reading \(database.path)", code: 0,
                            message: "its schema is not the one aasa-audit makes at version \(version) (\(parts.joined(separator: "; "))), "
                                + "so it is not used: aasa-audit never makes triggers, views or other tables there "
                                + "(move the file aside to start a new history)")
    }

    /// The schema of `database`, sorted.
    static func objects(of database: Database) throws(DatabaseError) -> [Object] {
        try database.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema") { row in
            Object(type: row.text(0) ?? "", name: row.text(1) ?? "", table: row.text(2) ?? "", sql: row.text(3))
        }.sorted()
    }

    /// What the migrations up to `version` make, read from a database in memory.
    static func expectedObjects(version: Int) throws(DatabaseError) -> [Object] {
        let scratch = try Database(path: ":memory:")
        for migration in migrations.prefix(version) { try scratch.execute(migration) }
        return try objects(of: scratch)
    }

    static let migrations: [String] = [
        // 0 → 1
        """
        CREATE TABLE run (
            id INTEGER PRIMARY KEY,
            generated_at INTEGER NOT NULL,      -- the run's start, Unix seconds (UTC)
            ended_at INTEGER,                   -- when it was recorded, Unix seconds; NULL for an import
            tool_version TEXT NOT NULL,
            shard TEXT NOT NULL DEFAULT '',     -- "K/N", or '' for the whole list
            complete INTEGER NOT NULL,          -- 0 for an interrupted run
            kind TEXT NOT NULL CHECK (kind IN ('list', 'one-off')),
            origin TEXT NOT NULL CHECK (origin IN ('audit', 'merge', 'import')),
            list_source TEXT,                   -- the domain list file, or NULL (arguments, merge, import)
            list_key TEXT NOT NULL,             -- identity of the set of domains (FNV-1a of the sorted names)
            domains INTEGER NOT NULL,
            pass INTEGER NOT NULL,
            warn INTEGER NOT NULL,
            fail INTEGER NOT NULL,
            seq INTEGER NOT NULL DEFAULT 0,     -- 0; 1, 2 … for later live runs with the same start, shard and domains
            UNIQUE (generated_at, shard, list_key, seq)
        );
        CREATE INDEX run_list ON run (kind, shard, generated_at);
        CREATE TABLE domain (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE           -- ASCII form
        );
        CREATE TABLE result (
            run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
            domain_id INTEGER NOT NULL REFERENCES domain (id),
            verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'warn', 'fail')),
            used_location TEXT,
            cert_not_after INTEGER,             -- Unix seconds
            cert_issuer TEXT,
            cert_subject TEXT,
            cdn_status INTEGER,                 -- HTTP status of Apple's CDN copy
            cdn_matches_origin INTEGER,         -- 1 same document, 0 differs, NULL not compared
            cdn_failure TEXT,                   -- Apple's failure reason, or the transfer error
            dns_ms REAL, connect_ms REAL, tls_ms REAL, first_byte_ms REAL, total_ms REAL,
            PRIMARY KEY (run_id, domain_id)
        ) WITHOUT ROWID;
        CREATE INDEX result_domain ON result (domain_id, run_id);
        CREATE TABLE finding (
            run_id INTEGER NOT NULL,
            domain_id INTEGER NOT NULL,
            rule TEXT NOT NULL,
            severity TEXT NOT NULL,
            location TEXT NOT NULL,             -- the location's path, or '' for a finding about the domain
            FOREIGN KEY (run_id, domain_id) REFERENCES result (run_id, domain_id) ON DELETE CASCADE
        );
        CREATE INDEX finding_result ON finding (domain_id, run_id);
        CREATE INDEX finding_run ON finding (run_id);
        """,
    ]
}
