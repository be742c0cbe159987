#ifndef CZIP_H
#define CZIP_H
// A tiny shim over libzip: typed forwards that fix the flags each use needs, turn an error code into
// its message, and give a buffer to libzip to own. Swift does the rest. Nothing else belongs here.
#include <zip.h>

/// Opens an existing archive read-only (zip_open with ZIP_RDONLY), or NULL with *error set to a ZIP_ER_ code.
zip_t *czip_open_read(const char *path, int *error);
/// Creates (or truncates) an archive to write (zip_open with ZIP_CREATE | ZIP_TRUNCATE), or NULL with *error set.
zip_t *czip_create(const char *path, int *error);
/// Copies libzip's message for a ZIP_ER_ code into buffer (NUL-terminated, truncated to size).
void czip_error_message(int code, char *buffer, size_t size);
/// The archive's last error message (zip_strerror).
const char *czip_archive_error(zip_t *archive);
/// Number of entries in the archive as opened, or -1.
zip_int64_t czip_entry_count(zip_t *archive);
/// Entry `index`'s name as UTF-8 (zip_get_name, encoding guessed), or NULL.
const char *czip_entry_name(zip_t *archive, zip_uint64_t index);
/// The uncompressed size the archive declares for entry `index` into *size: 0, or -1 when it has none.
int czip_entry_size(zip_t *archive, zip_uint64_t index, zip_uint64_t *size);
/// Opens entry `index` for reading (decompressed), or NULL.
zip_file_t *czip_open_entry(zip_t *archive, zip_uint64_t index);
/// Reads up to count decompressed bytes of an open entry: the number read, 0 at its end, -1 on error.
zip_int64_t czip_read(zip_file_t *entry, void *buffer, zip_uint64_t count);
/// The open entry's last error message (zip_file_strerror).
const char *czip_entry_error(zip_file_t *entry);
/// Closes an open entry: 0, or a ZIP_ER_ code (a CRC mismatch shows here).
int czip_close_entry(zip_file_t *entry);
/// Closes an archive opened read-only, writing nothing (zip_discard).
void czip_discard(zip_t *archive);
/// Adds a file `name` holding a copy of count bytes, stored (store != 0) or deflated; its index, or -1.
zip_int64_t czip_add_file(zip_t *archive, const char *name, const void *bytes, zip_uint64_t count, int store);
/// Adds a directory entry `name` (zip_dir_add); its index, or -1.
zip_int64_t czip_add_directory(zip_t *archive, const char *name);
/// Writes the archive and closes it (zip_close): 0, or -1 (the archive stays open; see czip_archive_error).
int czip_commit(zip_t *archive);

#endif
