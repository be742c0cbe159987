/* The benchmark's floor for CPU (issue 28): a bare libcurl client that makes exactly the transfers
 * aasa-audit makes per domain and nothing else (no checks, no reports, bodies discarded).
 *
 * Per domain: https://D/.well-known/apple-app-site-association; as soon as that transfer's connection is
 * up (CURLOPT_PREREQFUNCTION, the moment the tool adds them), the root location and the crawler's repeat
 * of .well-known (user agent AASA-Bot/1.0.0) go out on the same HTTP/2 connection. Each transfer with the
 * libcurl options the tool sets on its transfers (Transfer.configure in Sources/Fetching, with its
 * defaults): certificate info (CURLOPT_CERTINFO; curl collects it only where the handshake is made),
 * every encoding curl decodes, the Accept header, its timeouts and low-speed limit, no proxy, the CA
 * file alone. Admitted as the tool's TransferLoop admits them: at most CONCURRENCY transfers in flight
 * on one multi handle, a connected domain's other two before a new domain's first, at most twice
 * CONCURRENCY domains unfinished (SiteFetcher.window); one thread, as the tool's event loop. What it
 * leaves out is the tool's own work: its callbacks, checks and reports.
 *
 *   bench-bare-client DOMAINS_FILE CONNECT_TO_TARGET CACERT [CONCURRENCY]
 *
 * CONNECT_TO_TARGET is ADDR:PORT (every name is sent there, as the tool's --connect-to ::ADDR:PORT).
 * Prints "transfers N failed F" on stdout; exits 1 when a transfer did not get HTTP 200.
 * Built by scripts/bench.sh with `cc -O2 ... -lcurl`. Not part of the aasa-audit product. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WELL_KNOWN, ROOT, CRAWLER };

struct domain {
    char *name;
    int connected;   /* the .well-known transfer's connection is up: add the other two */
    int added;       /* of the other two, how many were added */
    int ended;       /* of its three transfers, how many ended (or will never be sent) */
};

struct transfer {
    struct domain *domain;
    int kind;
};

static struct curl_slist *connect_to, *accept_header;
static const char *cacert;
static long failed, finished, in_flight;
static struct domain **ready;   /* domains whose connection came up, in that order: a queue */
static size_t ready_head, ready_tail;

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data; (void)user;
    return size * count;
}

static int prerequest(void *user, char *conn_primary_ip, char *conn_local_ip, int conn_primary_port,
                      int conn_local_port) {
    (void)conn_primary_ip; (void)conn_local_ip; (void)conn_primary_port; (void)conn_local_port;
    struct domain *domain = user;
    if (!domain->connected) {
        domain->connected = 1;
        ready[ready_tail++] = domain;
    }
    return CURL_PREREQFUNC_OK;
}

static void check(CURLcode code, const char *what) {
    if (code != CURLE_OK) {
        fprintf(stderr, "bench-bare-client: %s: %s\n", what, curl_easy_strerror(code));
        exit(2);
    }
}

static void add(CURLM *multi, struct domain *domain, int kind) {
    char url[600];
    snprintf(url, sizeof url, "https://%s/%s", domain->name,
             kind == ROOT ? "apple-app-site-association" : ".well-known/apple-app-site-association");
    struct transfer *transfer = malloc(sizeof *transfer);
    if (!transfer) { perror("malloc"); exit(2); }
    transfer->domain = domain;
    transfer->kind = kind;
    CURL *easy = curl_easy_init();
    if (!easy) { fputs("bench-bare-client: curl_easy_init failed\n", stderr); exit(2); }
    check(curl_easy_setopt(easy, CURLOPT_URL, url), "CURLOPT_URL");
    check(curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer), "CURLOPT_PRIVATE");
    check(curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard), "CURLOPT_WRITEFUNCTION");
    check(curl_easy_setopt(easy, CURLOPT_CONNECT_TO, connect_to), "CURLOPT_CONNECT_TO");
    check(curl_easy_setopt(easy, CURLOPT_CAINFO, cacert), "CURLOPT_CAINFO");
    check(curl_easy_setopt(easy, CURLOPT_CAPATH, NULL), "CURLOPT_CAPATH");
    check(curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS), "CURLOPT_HTTP_VERSION");
    check(curl_easy_setopt(easy, CURLOPT_USERAGENT, kind == CRAWLER ? "AASA-Bot/1.0.0" : "aasa-audit-bench"),
          "CURLOPT_USERAGENT");
    /* The tool's options with its defaults (--connect-timeout 5, --timeout 10 plus curl's second of slack,
     * 100 bytes/s for 5 s): each is work curl does per transfer (timers, speed checks, decoders). */
    check(curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L), "CURLOPT_NOSIGNAL");
    check(curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L), "CURLOPT_FOLLOWLOCATION");
    check(curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https"), "CURLOPT_PROTOCOLS_STR");
    check(curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, ""), "CURLOPT_ACCEPT_ENCODING");
    check(curl_easy_setopt(easy, CURLOPT_HTTPHEADER, accept_header), "CURLOPT_HTTPHEADER");
    check(curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 5000L), "CURLOPT_CONNECTTIMEOUT_MS");
    check(curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 11000L), "CURLOPT_TIMEOUT_MS");
    check(curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 100L), "CURLOPT_LOW_SPEED_LIMIT");
    check(curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, 5L), "CURLOPT_LOW_SPEED_TIME");
    check(curl_easy_setopt(easy, CURLOPT_PROXY, ""), "CURLOPT_PROXY");
    check(curl_easy_setopt(easy, CURLOPT_NOPROXY, ""), "CURLOPT_NOPROXY");
    check(curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L), "CURLOPT_SSL_VERIFYPEER");
    check(curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L), "CURLOPT_SSL_VERIFYHOST");
    /* On every transfer, as the tool asks: curl collects it only for the one that makes the handshake. */
    check(curl_easy_setopt(easy, CURLOPT_CERTINFO, 1L), "CURLOPT_CERTINFO");
    if (kind == WELL_KNOWN) {
        check(curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, prerequest), "CURLOPT_PREREQFUNCTION");
        check(curl_easy_setopt(easy, CURLOPT_PREREQDATA, domain), "CURLOPT_PREREQDATA");
    }
    if (curl_multi_add_handle(multi, easy) != CURLM_OK) { fputs("bench-bare-client: add_handle failed\n", stderr); exit(2); }
    in_flight++;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fputs("usage: bench-bare-client DOMAINS_FILE CONNECT_TO_TARGET CACERT [CONCURRENCY]\n", stderr);
        return 2;
    }
    long concurrency = argc > 4 ? strtol(argv[4], NULL, 10) : 64;
    if (concurrency < 3) concurrency = 3;
    cacert = argv[3];
    char rule[300];
    snprintf(rule, sizeof rule, "::%s", argv[2]);
    connect_to = curl_slist_append(NULL, rule);
    accept_header = curl_slist_append(NULL, "Accept: application/json, */*;q=0.8");

    FILE *file = fopen(argv[1], "r");
    if (!file) { perror(argv[1]); return 2; }
    size_t capacity = 1024, count = 0;
    struct domain *domains = malloc(capacity * sizeof *domains);
    char line[512];
    while (domains && fgets(line, sizeof line, file)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        if (count == capacity) {
            capacity *= 2;
            domains = realloc(domains, capacity * sizeof *domains);
            if (!domains) break;
        }
        domains[count].name = strdup(line);
        domains[count].connected = 0;
        domains[count].added = 0;
        domains[count].ended = 0;
        count++;
    }
    fclose(file);
    ready = malloc((count + 1) * sizeof *ready);
    if (!domains || !ready) { perror("malloc"); return 2; }

    check(curl_global_init(CURL_GLOBAL_DEFAULT), "curl_global_init");
    CURLM *multi = curl_multi_init();
    /* Idle connections kept as the tool keeps them: twice the concurrency, at least 64. */
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, concurrency * 2 > 64 ? concurrency * 2 : 64L);
    size_t next = 0, unfinished = 0, window = (size_t)concurrency * 2;
    long total = (long)count * 3;
    while (finished < total) {
        /* Room for a transfer goes first to a connected domain's other two (they are on its connection),
         * then to a new domain while fewer than the window are unfinished. */
        while (in_flight < concurrency) {
            if (ready_head < ready_tail) {
                struct domain *domain = ready[ready_head];
                add(multi, domain, domain->added == 0 ? ROOT : CRAWLER);
                if (++domain->added == 2) ready_head++;
            } else if (next < count && unfinished < window) {
                add(multi, &domains[next++], WELL_KNOWN);
                unfinished++;
            } else {
                break;
            }
        }
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            struct transfer *transfer = NULL;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&transfer);
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            struct curl_certinfo *chain = NULL;  /* read for every transfer, as the tool reads it */
            curl_easy_getinfo(easy, CURLINFO_CERTINFO, &chain);
            if (message->data.result != CURLE_OK || status != 200) {
                failed++;
                fprintf(stderr, "bench-bare-client: %s (%d): %s, HTTP %ld\n", transfer->domain->name, transfer->kind,
                        curl_easy_strerror(message->data.result), status);
            }
            /* A .well-known transfer that ended before its connection came up: its other two are never sent;
             * count them as failed so the totals add up. */
            if (transfer->kind == WELL_KNOWN && !transfer->domain->connected) {
                failed += 2;
                finished += 2;
                transfer->domain->ended += 2;
            }
            if (++transfer->domain->ended == 3) unfinished--;
            curl_multi_remove_handle(multi, easy);
            curl_easy_cleanup(easy);
            free(transfer);
            finished++;
            in_flight--;
        }
        if (finished < total && (ready_head == ready_tail || in_flight >= concurrency)) curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    curl_multi_cleanup(multi);
    curl_slist_free_all(connect_to);
    curl_slist_free_all(accept_header);
    curl_global_cleanup();
    printf("transfers %ld failed %ld\n", total, failed);
    return failed ? 1 : 0;
}
