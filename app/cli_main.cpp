// SPDX-License-Identifier: GPL-3.0-or-later
// slicescope-cli: the engine without the GUI. The options and commands live next to this file in
// the slicescope_cli library (app/cli.h) so that tests run them in process; this file only looks
// at the terminal.
#include "app/cli.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    // A closed pipe should make a write fail (reported, exit 1), not kill the process silently.
    std::signal(SIGPIPE, SIG_IGN);
    std::ios::sync_with_stdio(false);

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
