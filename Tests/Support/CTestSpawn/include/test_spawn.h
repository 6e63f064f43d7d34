// Starting the tests' programs without Foundation's Process (TestSupport/ChildProcess.swift
// says why): the two calls Swift's Glibc module does not offer.
#ifndef IR_TEST_SPAWN_H
#define IR_TEST_SPAWN_H

#include <sys/types.h>

/// pipe2(fds, O_CLOEXEC): neither end leaks into a program another thread starts.
int ir_test_pipe(int fds[2]);

/// Starts `path` (looked up in PATH when it has no slash) with `argv` and `envp`. Its
/// standard input, output and error are `in`, `out` and `err` (-1: /dev/null); every other
/// descriptor is closed, the signal mask is empty and every signal has its default action
/// (this process ignores SIGPIPE, which a program would otherwise inherit). Returns 0 and
/// stores the child's pid, or returns the errno of the failure.
int ir_test_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err, pid_t *pid);

#endif
