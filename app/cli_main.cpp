// SPDX-License-Identifier: GPL-3.0-or-later
// slicescope-cli: the engine without the GUI. The options and commands live next to this file in
// the slicescope_cli library (app/cli.h) so that tests run them in process; this file only looks
// at the terminal.
#include "app/cli.h"
#include "protocol/atomic_file.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    // A closed pipe should make a write fail (reported, exit 1), not kill the process silently.
    std::signal(SIGPIPE, SIG_IGN);
    // Ctrl-C or a kill during `eval --save` leaves no half-written temporary file beside the
    // target, and says so.
    ss::removeUnfinishedFilesOnInterrupt("slicescope-cli");
    std::ios::sync_with_stdio(false);
#ifdef __GLIBC__
    // `run` answers request after request, each allocating its working memory afresh (unique's
    // table, row lists, sources). glibc maps a block over its threshold (128 KiB, rising up to
    // 32 MiB as such blocks are freed) and unmaps it when freed, and gives the heap's freed top
    // back to the kernel, so each request faulted its memory in again: 2,000 page faults and
    // 40% of the time of unique_with_counts on 10^6 distinct values, request after request. As
    // the workbench does (keepFreedMemoryForReuse): one arena (a worker's own arena maps every
    // block over 64 MiB), blocks mapped only past 1 GiB, no trimming on free. A request that
    // needs the memory gets it back (the budget's reclaim calls malloc_trim), and tensors' large
    // buffers have their own pool outside the heap (tensor.cpp).
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, -1);
#endif

    ss::CliEnvironment environment;
    environment.version = SLICESCOPE_VERSION;
    const char* term = std::getenv("TERM");
    environment.color = isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") &&
                        !(term && std::strcmp(term, "dumb") == 0);
    winsize size{};
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40)
        environment.width = size.ws_col;
    else if (const char* columns = std::getenv("COLUMNS"); columns && std::atoi(columns) >= 40)
        environment.width = std::atoi(columns);

    return ss::runCli(std::vector<std::string>(argv + 1, argv + argc), std::cin, std::cout,
                      std::cerr, environment);
}
