// epoll for `closet serve` (see the header): level-triggered, so the server's loop reads and
// writes as with poll, but each turn costs what is ready, not what is open.
#include "CServerSupport.h"

#if defined(__linux__)
#include <sys/epoll.h>

int closet_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int closet_epoll_control(int poller, int op, int fd, int readable, int writable, uint64_t tag) {
    struct epoll_event event = {0};
    event.events = (readable ? EPOLLIN : 0) | (writable ? EPOLLOUT : 0);
    event.data.u64 = tag;
    int operation = op == 1 ? EPOLL_CTL_ADD : op == 2 ? EPOLL_CTL_MOD : EPOLL_CTL_DEL;
    return epoll_ctl(poller, operation, fd, &event);
}

int closet_epoll_wait(int poller, uint64_t *tags, uint32_t *ready, int capacity, int milliseconds) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(poller, events, capacity, milliseconds);
    for (int i = 0; i < count; i++) {
        tags[i] = events[i].data.u64;
        uint32_t bits = events[i].events;
        ready[i] = ((bits & EPOLLIN) ? 1u : 0u) | ((bits & EPOLLOUT) ? 2u : 0u) |
                   ((bits & (EPOLLHUP | EPOLLERR)) ? 4u : 0u);
    }
    return count;
}
#else
int closet_epoll_create(void) { return -1; }
int closet_epoll_control(int poller, int op, int fd, int readable, int writable, uint64_t tag) { return -1; }
int closet_epoll_wait(int poller, uint64_t *tags, uint32_t *ready, int capacity, int milliseconds) { return -1; }
#endif
