/// The tables of `history.sqlite` and the migrations between their versions (`PRAGMA user_version`).
/// Each migration takes the file from version `index` to `index + 1`; a file written by a newer
/// aasa-audit (a higher version) is left alone. docs/history.md describes every column.
enum HistorySchema {
    /// The version this build writes.
    static var version: Int { migrations.count }

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
