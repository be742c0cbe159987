#include <stddef.h>
#include "csqlite.h"

int csqlite_open(const char *path, sqlite3 **db) { return sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL); }
int csqlite_close(sqlite3 *db) { return sqlite3_close_v2(db); }
int csqlite_busy_handler(sqlite3 *db, int (*handler)(void *, int), void *context) { return sqlite3_busy_handler(db, handler, context); }
void csqlite_progress_handler(sqlite3 *db, int instructions, int (*handler)(void *), void *context) { sqlite3_progress_handler(db, instructions, handler, context); }
int csqlite_db_config_flag(sqlite3 *db, int option, int value) { return sqlite3_db_config(db, option, value, (int *)0); }
int csqlite_exec(sqlite3 *db, const char *sql) { return sqlite3_exec(db, sql, NULL, NULL, NULL); }
const char *csqlite_errmsg(sqlite3 *db) { return sqlite3_errmsg(db); }
const char *csqlite_errstr(int code) { return sqlite3_errstr(code); }
int csqlite_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **statement) { return sqlite3_prepare_v2(db, sql, -1, statement, NULL); }
int csqlite_finalize(sqlite3_stmt *statement) { return sqlite3_finalize(statement); }
int csqlite_reset(sqlite3_stmt *statement) { int code = sqlite3_reset(statement); sqlite3_clear_bindings(statement); return code; }
int csqlite_step(sqlite3_stmt *statement) { return sqlite3_step(statement); }
int csqlite_bind_int64(sqlite3_stmt *statement, int index, long long value) { return sqlite3_bind_int64(statement, index, value); }
int csqlite_bind_double(sqlite3_stmt *statement, int index, double value) { return sqlite3_bind_double(statement, index, value); }
int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes) { return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT); }
int csqlite_bind_null(sqlite3_stmt *statement, int index) { return sqlite3_bind_null(statement, index); }
int csqlite_column_type(sqlite3_stmt *statement, int index) { return sqlite3_column_type(statement, index); }
long long csqlite_column_int64(sqlite3_stmt *statement, int index) { return sqlite3_column_int64(statement, index); }
double csqlite_column_double(sqlite3_stmt *statement, int index) { return sqlite3_column_double(statement, index); }
const unsigned char *csqlite_column_text(sqlite3_stmt *statement, int index) { return sqlite3_column_text(statement, index); }
int csqlite_column_bytes(sqlite3_stmt *statement, int index) { return sqlite3_column_bytes(statement, index); }
long long csqlite_changes(sqlite3 *db) { return sqlite3_changes64(db); }
long long csqlite_last_insert_rowid(sqlite3 *db) { return sqlite3_last_insert_rowid(db); }
