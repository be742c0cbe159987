/* The latency model's proxy for `make bench` (issue 28): a TCP proxy that adds a round-trip time to
 * every exchange, cheap enough that the benchmark measures the tool and not the proxy (issue 28: under a
 * tenth of the tool's CPU, which the benchmark checks). The same model as LatencyProxy in
 * Sources/TestSupport (which the tests use): bytes are forwarded unchanged (TLS passes through), each
 * direction held for half the round trip; the kernel completes a client's connect at once, so the
 * client's bytes are not sent on before the connection is one round trip old (the SYN / SYN-ACK a real
 * network would take):
 * client → upstream due max(received, opened + RTT) + RTT/2, upstream → client due received + RTT/2,
 * each on a grid of GRID_MS (default RTT_MS / 25, at least 1: 2 ms at 50 ms, 6 ms at 150 ms): a byte
 * is sent within half a grid step of its due time, either way (received times are taken at grid
 * times, up to one step after the byte came, and the due time is then rounded up from half a step
 * before it), so each half trip is RTT/2 on average, give or take 2 % of RTT/2 at the default; a
 * peer's EOF goes with the bytes due at the same time, after them.
 *
 * What it costs is mostly wake-ups (on the 2-core VM of docs/scaling.md about 35 µs each, more than a
 * send), so it wakes at most once per grid step: one thread; epoll, edge-triggered, for reading
 * (EPOLLOUT only while a send is blocked: a Unix socket wakes its writer on every read); while there is
 * traffic it sleeps to the next grid time and reads everything that came meanwhile as received at that
 * grid time (bytes that come in the microseconds between the grid time and the read count as received
 * at it, as bytes that come while the proxy is awake always did), then writes what is due then, one
 * send per direction; idle, it waits in epoll_pwait2 for the next due time or an arrival. A coarser
 * grid is fewer wake-ups (2 ms: about half of 1 ms's while the traffic is dense) for a wider spread
 * around each due time: one in proportion to the round trip keeps the spread the same share of it. Bytes are read straight into reused chunk buffers (no copy, no allocation per
 * chunk). The upstream may be a Unix socket (nginx's `listen unix:`): its half then costs no TCP on
 * either end.
 *
 *   bench-delay-proxy LISTEN_ADDR:PORT UPSTREAM_ADDR:PORT|unix:PATH RTT_MS [GRID_MS]
 *
 * Port 0 picks a free one; prints "listening on ADDR:PORT" once it listens. Runs until killed.
 * Built by scripts/bench.sh with `cc -O2`. Not part of the aasa-audit product. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Every chunk has room for this many bytes; freed chunks are kept for reuse. */
enum { CHUNK_BYTES = 16384 };

struct chunk {
    struct chunk *next;
    uint64_t due;
    size_t length, offset;
    int eof;               /* the source closed: shut the destination's writing half down */
    unsigned char bytes[CHUNK_BYTES];
};

struct direction {
    struct chunk *head, *tail;
    int shut;              /* the EOF was passed on */
    int blocked;           /* the destination's send buffer is full: wait for EPOLLOUT */
    int ended;             /* the source sent EOF (or failed): nothing more is read from it */
};

struct connection;
/* What an epoll event points at: one socket of a connection. */
struct end {
    struct connection *connection;
    int fd;
    int upstream;          /* this is the upstream socket */
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

/* grid: the step of the grid (ns); early: how much before its due time a byte may go (half a step). */
static uint64_t half, round_trip, grid, early;
static int epoll_fd;
static struct timer *heap;
static size_t heap_count, heap_capacity;
static struct connection *free_list;
static struct chunk *free_chunks;

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

/* Registers a socket for reading (edge-triggered); close removes it. EPOLLOUT only while a send is
 * blocked (`writing`): registered always, it is an edge and a wake-up each time the peer reads (a
 * Unix socket wakes its writer on every read, TCP on an ACK after a full buffer). */
static void watch(struct end *end, int op, int writing) {
    struct epoll_event event = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET | (writing ? EPOLLOUT : 0), .data.ptr = end };
    epoll_ctl(epoll_fd, op, end->fd, &event);
}

static struct chunk *new_chunk(void) {
    struct chunk *chunk = free_chunks;
    if (chunk) free_chunks = chunk->next;
    else chunk = allocate(sizeof *chunk);
    chunk->next = NULL;
    chunk->length = chunk->offset = 0;
    chunk->eof = 0;
    return chunk;
}

static void free_chunk(struct chunk *chunk) {
    chunk->next = free_chunks;
    free_chunks = chunk;
}

/* A time on the grid, rounded up: chunks due within one step share one send and one wake-up. */
static uint64_t on_grid(uint64_t t) {
    return (t + grid - 1) / grid * grid;
}

/* A grid time at or before `t`. */
static uint64_t grid_floor(uint64_t t) {
    return t / grid * grid;
}

static void release(struct connection *c) {
    for (struct direction *d = &c->up; d; d = d == &c->up ? &c->down : NULL) {
        while (d->head) { struct chunk *next = d->head->next; free_chunk(d->head); d->head = next; }
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
        while (chunk->offset < chunk->length) {
            ssize_t n = send(destination->fd, chunk->bytes + chunk->offset, chunk->length - chunk->offset, MSG_NOSIGNAL);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                /* The next EPOLLOUT edge flushes it (one comes at once if it is writable by then). */
                if (!d->blocked) watch(destination, EPOLL_CTL_MOD, 1);
                d->blocked = 1;
                return 1;
            }
            if (n < 0) { if (errno == EINTR) continue; return 0; }
            chunk->offset += (size_t)n;
        }
        if (chunk->eof) {
            shutdown(destination->fd, SHUT_WR);
            d->shut = 1;
        }
        d->head = chunk->next;
        if (!d->head) d->tail = NULL;
        free_chunk(chunk);
    }
    if (d->blocked) watch(destination, EPOLL_CTL_MOD, 0);
    d->blocked = 0;
    return 1;
}

/* Whether bytes due at `due` go into the last chunk of `d`: it is due then too and has room (and ends
 * no stream). */
static int joins_tail(const struct direction *d, uint64_t due) {
    const struct chunk *tail = d->tail;
    return tail && tail->due == due && !tail->eof && tail->length < CHUNK_BYTES;
}

/* Queues a new chunk with its timer: one timer per due time of a direction (a chunk's bytes appended
 * to its tail need none). */
static void enqueue(struct connection *c, struct direction *d, int down, struct chunk *chunk, uint64_t due) {
    chunk->due = due;
    if (d->tail) d->tail->next = chunk; else d->head = chunk;
    d->tail = chunk;
    heap_push((struct timer){ due, c, c->generation, down });
}

/* Reads what `source` has; returns 0 when the connection failed. Edge-triggered, a short read ends it:
 * the queue was empty then, and bytes arriving later are a new edge. Unless the peer's FIN has come
 * (`closing`: EPOLLRDHUP), whose edge is spent: then it reads on to the EOF. */
static int receive(struct connection *c, struct end *source, uint64_t at, int closing) {
    int down = source->upstream;
    struct direction *d = down ? &c->down : &c->up;
    if (d->ended) return 1;
    uint64_t sent = down ? at : (at > c->opened + round_trip ? at : c->opened + round_trip);
    /* Received at a grid time, up to a step after it came: rounded up from half a step before, its
     * delay is RTT/2 give or take half a step. */
    uint64_t due = on_grid(sent + half - early);
    for (;;) {
        /* A new chunk is queued (with a timer) only when the read brought something: bytes or the EOF. */
        int fresh = !joins_tail(d, due);
        struct chunk *chunk = fresh ? new_chunk() : d->tail;
        ssize_t n = recv(source->fd, chunk->bytes + chunk->length, CHUNK_BYTES - chunk->length, 0);
        if (n < 0) {
            if (fresh) free_chunk(chunk);
            if (errno == EINTR) continue;
            return errno == EAGAIN || errno == EWOULDBLOCK;
        }
        if (fresh) enqueue(c, d, down, chunk, due);
        if (n == 0) {
            /* The EOF goes with the bytes due at the same time, after them: flush shuts down after sending. */
            d->ended = 1;
            chunk->eof = 1;
            return 1;
        }
        size_t room = CHUNK_BYTES - chunk->length;
        chunk->length += (size_t)n;
        if ((size_t)n < room && !closing) return 1;
    }
}

/* The upstream: IPv4 ADDR:PORT or unix:PATH (a Unix stream socket). */
struct upstream_address {
    struct sockaddr_storage address;
    socklen_t length;
};

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

static int parse_upstream(const char *text, struct upstream_address *upstream) {
    memset(upstream, 0, sizeof *upstream);
    if (strncmp(text, "unix:", 5) == 0) {
        struct sockaddr_un *address = (struct sockaddr_un *)&upstream->address;
        size_t length = strlen(text + 5);
        if (length == 0 || length >= sizeof address->sun_path) return 0;
        address->sun_family = AF_UNIX;
        memcpy(address->sun_path, text + 5, length + 1);
        upstream->length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length + 1);
        return 1;
    }
    upstream->length = sizeof(struct sockaddr_in);
    return parse(text, (struct sockaddr_in *)&upstream->address);
}

static void accept_all(int listener, const struct upstream_address *upstream_address, uint64_t at) {
    int family = upstream_address->address.ss_family;
    for (;;) {
        int client = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0) return;
        int upstream = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (upstream < 0) { close(client); return; }
        int one = 1;
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (family == AF_INET) setsockopt(upstream, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        /* A Unix socket's connect completes at once (or fails: EAGAIN when nginx's backlog is full). */
        if (connect(upstream, (const struct sockaddr *)&upstream_address->address, upstream_address->length) < 0 && errno != EINPROGRESS) {
            close(client); close(upstream); continue;
        }
        struct connection *c = free_list;
        if (c) free_list = c->free_next;
        else { c = allocate(sizeof *c); c->generation = 0; }
        unsigned generation = c->generation;
        memset(c, 0, sizeof *c);
        c->generation = generation;
        c->live = 1;
        c->opened = at;
        c->client = (struct end){ c, client, 0 };
        c->upstream = (struct end){ c, upstream, 1 };
        watch(&c->client, EPOLL_CTL_ADD, 0);
        watch(&c->upstream, EPOLL_CTL_ADD, 0);
    }
}

int main(int argc, char **argv) {
    struct sockaddr_in listen_address;
    struct upstream_address upstream_address;
    if ((argc != 4 && argc != 5) || !parse(argv[1], &listen_address) || !parse_upstream(argv[2], &upstream_address)
        || (argc == 5 && strtoull(argv[4], NULL, 10) == 0)) {
        fputs("usage: bench-delay-proxy LISTEN_ADDR:PORT UPSTREAM_ADDR:PORT|unix:PATH RTT_MS [GRID_MS] (IPv4; GRID_MS at least 1)\n", stderr);
        return 2;
    }
    round_trip = (uint64_t)strtoull(argv[3], NULL, 10) * 1000000u;
    half = round_trip / 2;
    uint64_t grid_ms = argc == 5 ? (uint64_t)strtoull(argv[4], NULL, 10) : round_trip / 1000000u / 25u;
    grid = (grid_ms > 0 ? grid_ms : 1u) * 1000000u;
    early = grid / 2 < half ? grid / 2 : half;
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
    /* The listener level-triggered: a connection left waiting (no descriptor free) is offered again. */
    struct end listening = { NULL, listener, 0 };
    struct epoll_event listen_event = { .events = EPOLLIN, .data.ptr = &listening };
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &listen_event);
    struct epoll_event events[256];
    /* Two ways to wait. Ticking: asleep (clock_nanosleep, which arrivals do not interrupt) until the
     * next grid time, then whatever arrived meanwhile is read at once, as arrived at that grid time,
     * which is the due time it would have had (arrived in the step before it, rounded up): a
     * burst of the peers' small writes is one wake-up, not one each. It goes on while a wake-up reads
     * something or a chunk falls due at the next grid time. Otherwise epoll_pwait2 until the next due
     * time or an arrival, read when it comes (the first of a burst; the rest at the next grid time). */
    int ticking = 0;
    uint64_t tick = 0;
    for (;;) {
        int ready;
        uint64_t at;
        if (ticking) {
            struct timespec until = { (time_t)(tick / 1000000000u), (long)(tick % 1000000000u) };
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {}
            ready = epoll_wait(epoll_fd, events, 256, 0);
            at = grid_floor(now());
        } else {
            struct timespec wait, *timeout = NULL;
            uint64_t t = now();
            if (heap_count) {
                uint64_t left = heap[0].due > t ? heap[0].due - t : 0;
                wait = (struct timespec){ (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
                timeout = &wait;
            }
            ready = epoll_pwait2(epoll_fd, events, 256, timeout, NULL);
            at = now();
            if (ready == 0) at = grid_floor(at);  /* woken for a due time: that grid time */
        }
        if (ready < 0 && errno != EINTR) { perror("bench-delay-proxy: epoll_wait"); return 2; }
        if (ready < 0) ready = 0;
        for (int i = 0; i < ready; i++) {
            struct end *end = events[i].data.ptr;
            if (!end->connection) { accept_all(listener, &upstream_address, at); continue; }
            struct connection *c = end->connection;
            if (!c->live) continue;
            int ok = 1;
            uint32_t ready_events = events[i].events;
            /* EPOLLOUT can come with other edges too: only a blocked direction has anything to write. */
            struct direction *into = end->upstream ? &c->up : &c->down;
            if ((ready_events & EPOLLOUT) && into->blocked) ok = flush(into, end, at);
            if (ok && (ready_events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))) {
                /* Hang-up or error with reading over: both ways of this socket are gone. */
                struct direction *from = end->upstream ? &c->down : &c->up;
                if (!from->ended) ok = receive(c, end, at, (ready_events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0);
                else if (ready_events & (EPOLLHUP | EPOLLERR)) ok = 0;
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
        tick = grid_floor(at) + grid;
        ticking = ready > 0 || (heap_count && heap[0].due <= tick);
    }
}
