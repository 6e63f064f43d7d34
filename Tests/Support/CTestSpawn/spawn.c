#define _GNU_SOURCE
#include "test_spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <unistd.h>

int ir_test_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

static int redirect(posix_spawn_file_actions_t *actions, int fd, int target) {
    if (fd < 0) {
        return posix_spawn_file_actions_addopen(actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
    }
    return posix_spawn_file_actions_adddup2(actions, fd, target);
}

int ir_test_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if (status == 0) status = redirect(&actions, in, 0);
    if (status == 0) status = redirect(&actions, out, 1);
    if (status == 0) status = redirect(&actions, err, 2);
    // What the descriptors above did not name goes, whether or not it was close-on-exec:
    // a listening socket or another test's pipe must not live on in this child.
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &none);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &all);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (status == 0) {
        status = strchr(path, '/') ? posix_spawn(pid, path, &actions, &attributes, argv, envp)
                                   : posix_spawnp(pid, path, &actions, &attributes, argv, envp);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}
