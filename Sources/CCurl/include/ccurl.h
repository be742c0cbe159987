#ifndef CCURL_H
#define CCURL_H
// A tiny shim over libcurl: Swift cannot call C variadic functions, so each
// curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt use gets a typed forward.
// Nothing else belongs here.
#include <curl/curl.h>

CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode ccurl_easy_setopt_ptr(CURL *easy, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value);
CURLcode ccurl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback callback);
CURLcode ccurl_easy_setopt_opensocket_function(CURL *easy, curl_opensocket_callback callback);
CURLcode ccurl_easy_setopt_prereq_function(CURL *easy, curl_prereq_callback callback);

CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value);
CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value);

/// Number of certificates in CURLINFO_CERTINFO (0 when none were collected).
int ccurl_easy_certinfo_count(CURL *easy);
/// The "Key:value" lines of certificate `index` in CURLINFO_CERTINFO, or NULL.
struct curl_slist *ccurl_easy_certinfo_lines(CURL *easy, int index);
/// The negotiated TLS protocol ("TLSv1.3") of the transfer's connection, or NULL.
/// Valid only while the transfer is running (call it from a callback).
const char *ccurl_easy_tls_version(CURL *easy);
/// OpenSSL's name of the negotiated cipher suite ("ECDHE-RSA-AES128-GCM-SHA256", "TLS_AES_128_GCM_SHA256")
/// of the transfer's connection, or NULL. Valid only while the transfer is running.
const char *ccurl_easy_tls_cipher(CURL *easy);
/// 1 when the transfer's TLS connection negotiated HTTP/2 by ALPN (so it multiplexes), else 0.
/// Valid only while the transfer is running (call it from a callback).
int ccurl_easy_alpn_is_h2(CURL *easy);

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

#endif
