#include "czip.h"
#include <stdlib.h>
#include <string.h>

zip_t *czip_open_read(const char *path, int *error) { return zip_open(path, ZIP_RDONLY, error); }
zip_t *czip_create(const char *path, int *error) { return zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, error); }
void czip_error_message(int code, char *buffer, size_t size) {
    zip_error_t error; zip_error_init_with_code(&error, code);
    if (size > 0) { strncpy(buffer, zip_error_strerror(&error), size - 1); buffer[size - 1] = 0; }
    zip_error_fini(&error);
}
const char *czip_archive_error(zip_t *archive) { return zip_strerror(archive); }
zip_int64_t czip_entry_count(zip_t *archive) { return zip_get_num_entries(archive, 0); }
const char *czip_entry_name(zip_t *archive, zip_uint64_t index) { return zip_get_name(archive, index, ZIP_FL_ENC_GUESS); }
int czip_entry_size(zip_t *archive, zip_uint64_t index, zip_uint64_t *size) {
    zip_stat_t stat; zip_stat_init(&stat);
    if (zip_stat_index(archive, index, 0, &stat) != 0 || !(stat.valid & ZIP_STAT_SIZE)) return -1;
    *size = stat.size; return 0;
}
zip_file_t *czip_open_entry(zip_t *archive, zip_uint64_t index) { return zip_fopen_index(archive, index, 0); }
zip_int64_t czip_read(zip_file_t *entry, void *buffer, zip_uint64_t count) { return zip_fread(entry, buffer, count); }
const char *czip_entry_error(zip_file_t *entry) { return zip_file_strerror(entry); }
int czip_close_entry(zip_file_t *entry) { return zip_fclose(entry); }
void czip_discard(zip_t *archive) { zip_discard(archive); }
zip_int64_t czip_add_file(zip_t *archive, const char *name, const void *bytes, zip_uint64_t count, int store) {
    // libzip reads the buffer when the archive is written: it gets its own copy, freed by libzip.
    void *copy = malloc(count ? count : 1);
    if (!copy) return -1;
    if (count) memcpy(copy, bytes, count);
    zip_source_t *source = zip_source_buffer(archive, copy, count, 1);
    if (!source) { free(copy); return -1; }
    zip_int64_t index = zip_file_add(archive, name, source, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8);
    if (index < 0) { zip_source_free(source); return -1; }
    if (zip_set_file_compression(archive, (zip_uint64_t)index, store ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 0) != 0) return -1;
    return index;
}
zip_int64_t czip_add_directory(zip_t *archive, const char *name) { return zip_dir_add(archive, name, ZIP_FL_ENC_UTF_8); }
int czip_commit(zip_t *archive) { return zip_close(archive); }
