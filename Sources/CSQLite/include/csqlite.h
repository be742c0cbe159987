#ifndef CSQLITE_H
#define CSQLITE_H
// A tiny shim over SQLite: typed one-line forwards of the few calls History uses, so Swift never
// spells sqlite3's macros (SQLITE_TRANSIENT is a cast function pointer Swift cannot import).
// Nothing else belongs here.
#include <sqlite3.h>

/// sqlite3_open_v2 with read-write, create and full-mutex flags; 0 (SQLITE_OK) or an error code.
/// The handle is set even on failure (close it with csqlite_close).
int csqlite_open(const char *path, sqlite3 **db);
/// sqlite3_close_v2.
int csqlite_close(sqlite3 *db);
/// sqlite3_busy_handler: called while a lock is held elsewhere; nonzero waits again, 0 gives up (SQLITE_BUSY).
int csqlite_busy_handler(sqlite3 *db, int (*handler)(void *, int), void *context);
/// sqlite3_progress_handler: called every `instructions` virtual-machine steps; nonzero interrupts
/// the statement (SQLITE_INTERRUPT).
void csqlite_progress_handler(sqlite3 *db, int instructions, int (*handler)(void *), void *context);
/// sqlite3_db_config for the on/off options (SQLITE_DBCONFIG_DEFENSIVE …), the variadic call typed.
int csqlite_db_config_flag(sqlite3 *db, int option, int value);
/// sqlite3_exec without a callback: runs one or more statements that return no rows.
int csqlite_exec(sqlite3 *db, const char *sql);
/// sqlite3_errmsg: the message of the last failed call on db.
const char *csqlite_errmsg(sqlite3 *db);
/// sqlite3_errstr: the English text of a result code.
const char *csqlite_errstr(int code);
/// sqlite3_prepare_v2 of a NUL-terminated statement.
int csqlite_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **statement);
/// sqlite3_finalize.
int csqlite_finalize(sqlite3_stmt *statement);
/// sqlite3_reset and sqlite3_clear_bindings, to run a prepared statement again.
int csqlite_reset(sqlite3_stmt *statement);
/// sqlite3_step: SQLITE_ROW (100), SQLITE_DONE (101) or an error code.
int csqlite_step(sqlite3_stmt *statement);
/// sqlite3_bind_int64 (index from 1).
int csqlite_bind_int64(sqlite3_stmt *statement, int index, long long value);
/// sqlite3_bind_double (index from 1).
int csqlite_bind_double(sqlite3_stmt *statement, int index, double value);
/// sqlite3_bind_text with SQLITE_TRANSIENT (SQLite copies the bytes; index from 1).
int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes);
/// sqlite3_bind_null (index from 1).
int csqlite_bind_null(sqlite3_stmt *statement, int index);
/// sqlite3_column_type (index from 0): SQLITE_INTEGER 1, FLOAT 2, TEXT 3, BLOB 4, NULL 5.
int csqlite_column_type(sqlite3_stmt *statement, int index);
/// sqlite3_column_int64 (index from 0).
long long csqlite_column_int64(sqlite3_stmt *statement, int index);
/// sqlite3_column_double (index from 0).
double csqlite_column_double(sqlite3_stmt *statement, int index);
/// sqlite3_column_text (index from 0); valid until the next step, reset or finalize.
const unsigned char *csqlite_column_text(sqlite3_stmt *statement, int index);
/// sqlite3_column_bytes (index from 0).
int csqlite_column_bytes(sqlite3_stmt *statement, int index);
/// sqlite3_changes64: rows changed by the last statement.
long long csqlite_changes(sqlite3 *db);
/// sqlite3_last_insert_rowid.
long long csqlite_last_insert_rowid(sqlite3 *db);

#endif
