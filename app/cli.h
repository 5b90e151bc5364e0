// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ss {

/// What slicescope-cli knows about where it runs.
struct CliEnvironment
{
    std::string version; ///< printed by --version
    bool color = false;  ///< stdout is a colour terminal: bold headings, highlighted elements
    int width = 100;     ///< terminal columns; tables wrap their last column to fit
};

/// slicescope-cli's commands (run, eval, encode, explain, ops) and options, with `args` being
/// argv without the program name. Returns the exit status: 0 on success, 1 if the work failed
/// (an engine error, or reading/writing failed in `run`), 2 for a usage error.
int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err, const CliEnvironment& environment);

/// The --help text.
std::string cliUsage();

} // namespace ss
