/* The latency model's proxy for `make bench` (issue 28): a TCP proxy that adds a round-trip time to
 * every exchange, cheap enough (epoll, one thread, no copies beyond one read buffer per chunk) that the
 * benchmark measures the tool and not the proxy. The same model as LatencyProxy in Sources/TestSupport
 * (which the tests use): bytes are forwarded unchanged (TLS passes through), each direction held for half
 * the round trip; the kernel completes a client's connect at once, so the client's bytes are not sent on
 * before the connection is one round trip old (the SYN / SYN-ACK a real network would take):
 * client → upstream due max(received, opened + RTT) + RTT/2, upstream → client due received + RTT/2.
 *
 *   bench-delay-proxy LISTEN_ADDR:PORT UPSTREAM_ADDR:PORT RTT_MS
 *
 * Port 0 picks a free one; prints "listening on ADDR:PORT" once it listens. Runs until killed.
 * Built by scripts/bench.sh with `cc -O2`. Not part of the aasa-audit product. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct chunk {
    struct chunk *next;
    uint64_t due;
    size_t length, offset;
    int eof;               /* the source closed: shut the destination's writing half down */
    unsigned char bytes[];
};

struct direction {
    struct chunk *head, *tail;
    int shut;              /* the EOF was passed on */
    int blocked;           /* the destination's send buffer is full: wait for EPOLLOUT */
};

struct connection;
/* What an epoll event points at: one socket of a connection. */
struct end {
    struct connection *connection;
    int fd;
    int upstream;          /* this is the upstream socket */
    uint32_t events;       /* registered */
};

struct connection {
    struct end client, upstream;
    struct direction up, down;   /* client → upstream, upstream → client */
    uint64_t opened;
    unsigned generation;         /* bumped when the slot is released: timers for an old one are ignored */
    int live;
    struct connection *free_next;
};

struct timer { uint64_t due; struct connection *connection; unsigned generation; int down; };

static uint64_t half, round_trip;
static int epoll_fd;
static struct timer *heap;
static size_t heap_count, heap_capacity;
static struct connection *free_list;

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void *allocate(size_t size) {
    void *p = malloc(size);
    if (!p) { perror("bench-delay-proxy: malloc"); exit(2); }
    return p;
}

static void heap_push(struct timer timer) {
    if (heap_count == heap_capacity) {
        heap_capacity = heap_capacity ? heap_capacity * 2 : 1024;
        heap = realloc(heap, heap_capacity * sizeof *heap);
        if (!heap) { perror("bench-delay-proxy: realloc"); exit(2); }
    }
    size_t i = heap_count++;
    while (i > 0 && heap[(i - 1) / 2].due > timer.due) { heap[i] = heap[(i - 1) / 2]; i = (i - 1) / 2; }
    heap[i] = timer;
}

static struct timer heap_pop(void) {
    struct timer top = heap[0], last = heap[--heap_count];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= heap_count) break;
        if (child + 1 < heap_count && heap[child + 1].due < heap[child].due) child++;
        if (heap[child].due >= last.due) break;
        heap[i] = heap[child];
        i = child;
    }
    if (heap_count) heap[i] = last;
    return top;
}

static void watch(struct end *end, uint32_t events) {
    if (events == end->events) return;
    struct epoll_event event = { .events = events, .data.ptr = end };
    epoll_ctl(epoll_fd, end->events ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, end->fd, &event);
    end->events = events;
}

static void release(struct connection *c) {
    for (struct direction *d = &c->up; d; d = d == &c->up ? &c->down : NULL) {
        while (d->head) { struct chunk *next = d->head->next; free(d->head); d->head = next; }
        d->tail = NULL;
    }
    close(c->client.fd);
    close(c->upstream.fd);
    c->live = 0;
    c->generation++;
    c->free_next = free_list;
    free_list = c;
}

/* Writes the chunks of `d` that are due to `destination`. Returns 0 when the connection failed. */
static int flush(struct direction *d, struct end *destination, uint64_t at) {
    while (d->head && d->head->due <= at) {
        struct chunk *chunk = d->head;
        if (chunk->eof) {
            shutdown(destination->fd, SHUT_WR);
            d->shut = 1;
        } else {
            while (chunk->offset < chunk->length) {
                ssize_t n = send(destination->fd, chunk->bytes + chunk->offset, chunk->length - chunk->offset, MSG_NOSIGNAL);
                if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                    d->blocked = 1;
                    watch(destination, destination->events | EPOLLOUT);
                    return 1;
                }
                if (n < 0) { if (errno == EINTR) continue; return 0; }
                chunk->offset += (size_t)n;
            }
        }
        d->head = chunk->next;
        if (!d->head) d->tail = NULL;
        free(chunk);
    }
    if (d->blocked) {
        d->blocked = 0;
        watch(destination, destination->events & ~(uint32_t)EPOLLOUT);
    }
    return 1;
}

static void queue(struct connection *c, struct direction *d, int down, struct chunk *chunk) {
    chunk->next = NULL;
    if (d->tail) d->tail->next = chunk; else d->head = chunk;
    d->tail = chunk;
    heap_push((struct timer){ chunk->due, c, c->generation, down });
}

/* Reads what `source` has; returns 0 when the connection failed. */
static int receive(struct connection *c, struct end *source, uint64_t at) {
    static unsigned char buffer[65536];
    int down = source->upstream;
    struct direction *d = down ? &c->down : &c->up;
    uint64_t sent = down ? at : (at > c->opened + round_trip ? at : c->opened + round_trip);
    for (;;) {
        ssize_t n = recv(source->fd, buffer, sizeof buffer, 0);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 1;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return 0;
        struct chunk *chunk = allocate(sizeof *chunk + (size_t)n);
        chunk->due = sent + half;
        chunk->length = (size_t)n;
        chunk->offset = 0;
        chunk->eof = n == 0;
        memcpy(chunk->bytes, buffer, (size_t)n);
        queue(c, d, down, chunk);
        if (n == 0) {
            watch(source, source->events & ~(uint32_t)EPOLLIN);
            return 1;
        }
        if ((size_t)n < sizeof buffer) return 1;
    }
}

static int parse(const char *text, struct sockaddr_in *address) {
    char host[64];
    const char *colon = strrchr(text, ':');
    if (!colon || (size_t)(colon - text) >= sizeof host) return 0;
    memcpy(host, text, (size_t)(colon - text));
    host[colon - text] = 0;
    memset(address, 0, sizeof *address);
    address->sin_family = AF_INET;
    address->sin_port = htons((uint16_t)atoi(colon + 1));
    return inet_pton(AF_INET, host, &address->sin_addr) == 1;
}

static void accept_all(int listener, const struct sockaddr_in *upstream_address) {
    for (;;) {
        int client = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0) return;
        int upstream = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (upstream < 0) { close(client); return; }
        int one = 1;
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(upstream, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(upstream, (const struct sockaddr *)upstream_address, sizeof *upstream_address) < 0 && errno != EINPROGRESS) {
            close(client); close(upstream); continue;
        }
        struct connection *c = free_list;
        if (c) free_list = c->free_next;
        else { c = allocate(sizeof *c); c->generation = 0; }
        unsigned generation = c->generation;
        memset(c, 0, sizeof *c);
        c->generation = generation;
        c->live = 1;
        c->opened = now();
        c->client = (struct end){ c, client, 0, 0 };
        c->upstream = (struct end){ c, upstream, 1, 0 };
        watch(&c->client, EPOLLIN);
        watch(&c->upstream, EPOLLIN);
    }
}

int main(int argc, char **argv) {
    struct sockaddr_in listen_address, upstream_address;
    if (argc != 4 || !parse(argv[1], &listen_address) || !parse(argv[2], &upstream_address)) {
        fputs("usage: bench-delay-proxy LISTEN_ADDR:PORT UPSTREAM_ADDR:PORT RTT_MS (IPv4)\n", stderr);
        return 2;
    }
    round_trip = (uint64_t)strtoull(argv[3], NULL, 10) * 1000000u;
    half = round_trip / 2;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (listener < 0 || bind(listener, (struct sockaddr *)&listen_address, sizeof listen_address) < 0 || listen(listener, 4096) < 0) {
        perror("bench-delay-proxy: listen");
        return 2;
    }
    socklen_t length = sizeof listen_address;
    getsockname(listener, (struct sockaddr *)&listen_address, &length);
    char host[64];
    inet_ntop(AF_INET, &listen_address.sin_addr, host, sizeof host);
    printf("listening on %s:%u\n", host, ntohs(listen_address.sin_port));
    fflush(stdout);

    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    struct end listening = { NULL, listener, 0, 0 };
    watch(&listening, EPOLLIN);
    struct epoll_event events[256];
    for (;;) {
        int timeout = -1;
        if (heap_count) {
            uint64_t t = now();
            timeout = heap[0].due <= t ? 0 : (int)((heap[0].due - t + 999999) / 1000000);
        }
        int ready = epoll_wait(epoll_fd, events, 256, timeout);
        if (ready < 0 && errno != EINTR) { perror("bench-delay-proxy: epoll_wait"); return 2; }
        uint64_t at = now();
        for (int i = 0; i < ready; i++) {
            struct end *end = events[i].data.ptr;
            if (!end->connection) { accept_all(listener, &upstream_address); continue; }
            struct connection *c = end->connection;
            if (!c->live) continue;
            int ok = 1;
            if (events[i].events & EPOLLOUT) {
                struct direction *d = end->upstream ? &c->up : &c->down;
                ok = flush(d, end, at);
            }
            if (ok && (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
                /* Hang-up or error with reading over: both ways of this socket are gone (they are
                 * reported until the socket is closed, so waiting would spin). */
                if (end->events & EPOLLIN) ok = receive(c, end, at);
                else ok = 0;
            }
            if (!ok || (c->up.shut && c->down.shut)) release(c);
        }
        /* Timers that fell due: write their direction's due chunks. */
        while (heap_count && heap[0].due <= at) {
            struct timer timer = heap_pop();
            struct connection *c = timer.connection;
            if (!c->live || c->generation != timer.generation) continue;
            struct direction *d = timer.down ? &c->down : &c->up;
            if (d->blocked) continue;  /* EPOLLOUT will flush it */
            if (!flush(d, timer.down ? &c->client : &c->upstream, at)) { release(c); continue; }
            if (c->up.shut && c->down.shut) release(c);
        }
    }
}
