#include "ccurl.h"
#include <openssl/ssl.h>

CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value) { return curl_easy_setopt(easy, option, value); }
CURLcode ccurl_easy_setopt_ptr(CURL *easy, CURLoption option, void *value) { return curl_easy_setopt(easy, option, value); }
CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) { return curl_easy_setopt(easy, option, value); }
CURLcode ccurl_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) { return curl_easy_setopt(easy, option, value); }
CURLcode ccurl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback callback) { return curl_easy_setopt(easy, option, callback); }
CURLcode ccurl_easy_setopt_opensocket_function(CURL *easy, curl_opensocket_callback callback) { return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback); }
CURLcode ccurl_easy_setopt_prereq_function(CURL *easy, curl_prereq_callback callback) { return curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, callback); }

CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) { return curl_easy_getinfo(easy, info, value); }
CURLcode ccurl_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value) { return curl_easy_getinfo(easy, info, value); }
CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) { return curl_easy_getinfo(easy, info, value); }

int ccurl_easy_certinfo_count(CURL *easy) {
    struct curl_certinfo *info = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_CERTINFO, &info) != CURLE_OK || info == NULL) return 0;
    return info->num_of_certs;
}

struct curl_slist *ccurl_easy_certinfo_lines(CURL *easy, int index) {
    struct curl_certinfo *info = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_CERTINFO, &info) != CURLE_OK || info == NULL) return NULL;
    if (index < 0 || index >= info->num_of_certs) return NULL;
    return info->certinfo[index];
}

const char *ccurl_easy_tls_version(CURL *easy) {
    struct curl_tlssessioninfo *session = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL) return NULL;
    if (session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL) return NULL;
    return SSL_get_version((const SSL *)session->internals);
}

const char *ccurl_easy_tls_cipher(CURL *easy) {
    struct curl_tlssessioninfo *session = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL) return NULL;
    if (session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL) return NULL;
    return SSL_CIPHER_get_name(SSL_get_current_cipher((const SSL *)session->internals));
}

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl_multi_setopt(multi, option, value); }

int ccurl_easy_alpn_is_h2(CURL *easy) {
    struct curl_tlssessioninfo *session = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL) return 0;
    if (session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL) return 0;
    const unsigned char *protocol = NULL;
    unsigned int length = 0;
    SSL_get0_alpn_selected((const SSL *)session->internals, &protocol, &length);
    return length == 2 && protocol[0] == 'h' && protocol[1] == '2';
}
