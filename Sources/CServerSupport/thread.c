// A worker thread's own priority, for `closet serve`'s writes' lane: password hashing is CPU
// work that must yield to reads on a machine of few cores.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CServerSupport.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int closet_lower_thread_priority(int niceness) {
    pid_t thread = (pid_t)syscall(SYS_gettid);
    int current = getpriority(PRIO_PROCESS, (id_t)thread);
    return setpriority(PRIO_PROCESS, (id_t)thread, current + niceness);
}
#else
int closet_lower_thread_priority(int niceness) { return -1; }
#endif
