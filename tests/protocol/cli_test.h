// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the suites that run slicescope-cli's commands in process (runCli, from app/'s
// slicescope_cli): one run's exit status and what it printed.
#pragma once

#include "app/cli.h"

#include <sstream>
#include <string>
#include <vector>

namespace ss::testing {

struct CliRun
{
    int exit = -1;
    std::string out;
    std::string err;
};

/// runCli with `args`, `input` on its standard input and `environment`.
inline CliRun runCliCapturing(const std::vector<std::string>& args, const std::string& input,
                              const CliEnvironment& environment)
{
    std::istringstream in(input);
    std::ostringstream out, err;
    CliRun run;
    run.exit = runCli(args, in, out, err, environment);
    run.out = out.str();
    run.err = err.str();
    return run;
}

inline bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace ss::testing
