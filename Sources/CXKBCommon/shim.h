#pragma once
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-compose.h>
#include <sys/syscall.h>
#include <unistd.h>

// The keymap's sealed file (KeymapFile.swift). glibc declares memfd_create only under
// _GNU_SOURCE, which Swift's importer does not define; its system call is always there.
static inline int ir_memfd_create(const char *name, unsigned int flags) {
    return (int)syscall(SYS_memfd_create, name, flags);
}
