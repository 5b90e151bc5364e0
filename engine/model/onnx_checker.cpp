// SPDX-License-Identifier: GPL-3.0-or-later
// onnx's checker and shape inference in a child process: this same program started afresh with
// the model on its standard input (see startCheckChild), the inferred shapes and the complaints
// back on its standard output.
#include "model/onnx_checker.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ss::model {

namespace {

namespace ox = ONNX_NAMESPACE;

// onnx's message on one line. Its sentences break lines ("input 'b' of node: \nname: t1
// OpType: Transpose\n is not output of any previous nodes."), and the checker's context block
// ("\n\n==> Context: Bad node spec for node. Name: t1 ...") names the node: both are kept, the
// context in parentheses.
std::string oneLine(const std::string& text)
{
    const auto collapse = [](std::string_view part) {
        std::string out;
        for (const char c : part) {
            const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
            if (space && (out.empty() || out.back() == ' ')) continue;
            out += space ? ' ' : c;
        }
        if (!out.empty() && out.back() == ' ') out.pop_back();
        return out;
    };
    constexpr std::string_view kContext = "==> Context:";
    const std::size_t at = text.find(kContext);
    std::string t = collapse(std::string_view(text).substr(0, at));
    if (at != std::string::npos) {
        const std::string context = collapse(std::string_view(text).substr(at + kContext.size()));
        if (!context.empty()) t += " (" + context + ")";
    }
    if (t.size() > 400) t = t.substr(0, 400) + "...";
    return t;
}

// onnx.checker and shape inference (initializers and Constant nodes folded in, data
// propagation on) as libonnx runs them. Their complaints go to `warnings`.
ox::ModelProto checkAndInferHere(const ox::ModelProto& model)
{
    ox::ModelProto result;
    std::string warnings;
    try {
        ox::checker::check_model(model);
    } catch (const std::exception& e) {
        warnings += "onnx.checker: " + oneLine(e.what()) + "\n";
    }
    ox::ModelProto copy = model;
    try {
        ox::shape_inference::InferShapes(copy, ox::OpSchemaRegistry::Instance(),
                                         ox::ShapeInferenceOptions(false, 0, true));
    } catch (const std::exception& e) {
        warnings += "shape inference: " + oneLine(e.what()) + "\n";
    }
    *result.mutable_graph()->mutable_value_info() = copy.graph().value_info();
    *result.mutable_graph()->mutable_output() = copy.graph().output();
    result.set_doc_string(warnings);
    return result;
}

bool writeAll(int fd, const std::string& bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

// libonnx 1.12's shape inference dereferences invalid attributes and inputs of some nodes (a
// corrupted file crashes it: tests/fuzz/corpus/model_onnx holds such files), and what it
// reads is the file. So the checker and inference run in a child process that sends back the
// inferred value_info: a child that crashes or takes over a minute leaves the file's own
// shapes, with a warning, and this process unharmed.
//
// The child is this same program started afresh (/proc/self/exe) with kCheckChildVariable set:
// the static object below runs the check before main and exits, in whatever program links this
// reader (the CLI, the GUI, a test, a fuzzer). A fork without exec would be simpler, but the
// GUI has threads: one holding the allocator's or the loader's lock at the fork leaves the
// child waiting for it forever (a risk everywhere, and a likely one under AddressSanitizer,
// whose allocator in GCC 12 takes no lock around a fork).
constexpr const char* kCheckChildVariable = "SLICESCOPE_ONNX_CHECK_CHILD";

bool readAll(int fd, std::string& bytes)
{
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        bytes.append(buffer, std::size_t(n));
    }
}

// The child: the model on standard input, the checked result on standard output.
[[noreturn]] void runCheckChild()
{
    // A crash ends the child at once: no handler installed before main (a sanitizer's report)
    // runs, and no core file is written.
    for (const int sig : {SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT})
        ::signal(sig, SIG_DFL);
    const rlimit noCore{0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    std::string bytes;
    ox::ModelProto model;
    if (!readAll(0, bytes) || bytes.size() > std::size_t(INT_MAX) ||
        !model.ParseFromArray(bytes.data(), int(bytes.size())))
        ::_exit(1);
    bytes.clear();
    checkAndInferHere(model).SerializeToString(&bytes);
    ::_exit(writeAll(1, bytes) ? 0 : 1);
}

const struct CheckChildEntry
{
    CheckChildEntry()
    {
        if (std::getenv(kCheckChildVariable)) runCheckChild();
    }
} checkChildEntry;

// Starts the child with the serialised model as its standard input; returns its pid (or -1)
// and the read end of its standard output in `output`.
pid_t startCheckChild(const std::string& model, int& output)
{
    const int input = ::memfd_create("slicescope-onnx-model", MFD_CLOEXEC);
    if (input < 0) return -1;
    int fds[2];
    if (!writeAll(input, model) || ::lseek(input, 0, SEEK_SET) != 0 ||
        ::pipe2(fds, O_CLOEXEC) != 0) {
        ::close(input);
        return -1;
    }
    std::vector<std::string> variables;
    for (char** e = environ; *e; ++e)
        variables.emplace_back(*e);
    variables.push_back(std::string(kCheckChildVariable) + "=1");
    std::vector<char*> envp;
    for (std::string& v : variables)
        envp.push_back(v.data());
    envp.push_back(nullptr);
    char name[] = "slicescope-onnx-check";
    char* argv[] = {name, nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    if (::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, envp.data()) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    ::close(input);
    ::close(fds[1]);
    if (pid < 0)
        ::close(fds[0]);
    else
        output = fds[0];
    return pid;
}

} // namespace

// Cancelling `limits.job` kills the child and throws OpError(Cancelled): the GUI's Cancel, a
// second file opened meanwhile, or the window closing, never waits out the minute.
ox::ModelProto checkAndInfer(const ox::ModelProto& model, const ReadLimits& limits,
                             std::vector<std::string>& warnings)
{
    std::string serialised;
    int output = -1;
    const pid_t pid =
        model.SerializeToString(&serialised) ? startCheckChild(serialised, output) : pid_t(-1);
    if (pid < 0) {
        warnings.push_back("onnx.checker and shape inference were not run: no process");
        return {};
    }
    std::string bytes;
    bool timedOut = false;
    bool cancelled = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    // A job is looked at every 50 ms, so that cancelling it is seen at once.
    const long long wakeMs = limits.job ? 50 : 1000;
    for (;;) {
        if (limits.job && limits.job->isCancelled()) {
            cancelled = true;
            break;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{output, POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left, wakeMs)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t n = ::read(output, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        bytes.append(buffer, std::size_t(n));
    }
    ::close(output);
    if (timedOut || cancelled) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (cancelled) limits.throwIfCancelled();
    ox::ModelProto result;
    if (timedOut || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        !result.ParseFromString(bytes)) {
        warnings.push_back(std::string("onnx's checker and shape inference ") +
                           (timedOut              ? "took over a minute"
                            : WIFSIGNALED(status) ? "crashed on this file (signal " +
                                                        std::to_string(WTERMSIG(status)) + ")"
                                                  : "failed") +
                           "; the shapes are the file's own");
        return {};
    }
    std::size_t start = 0;
    const std::string& text = result.doc_string();
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        warnings.push_back(text.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return result;
}

} // namespace ss::model
