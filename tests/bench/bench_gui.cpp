// SPDX-License-Identifier: GPL-3.0-or-later
// bench_gui: the whole workbench, from an edit of the expression until both views show its
// result, for inputs of 10^3 to 10^7 elements (10^8 with --max), and the time from process start
// to the first frame. Every edit goes through the window as a typed one does (an undoable
// workspace change, evaluated on the engine's workers); edits are spaced so that each starts
// after a quiet spell, as single edits do (bursts of typing are gathered by the 100 ms debounce
// instead).
//
// Columns (ms unless said): first: the window's first evaluation of the size (inputs made,
// every buffer fresh), until its last frame; latency: median and worst time from an edit until
// the window has settled (the new result applied to both views and their background work landed)
// and painted a frame; worker: median time the evaluation took on the engine's worker (making
// inputs, planning, executing, sources and read orders); stall: longest gap between ticks of a
// 1 ms GUI-thread timer during the edits, in wall time; busy: the same gap in the GUI thread's own
// CPU time (without time the OS gave to other processes on a shared machine); B/el: the process's
// resident memory after the edits, per element of the input; idle: one more edit after a quiet
// spell longer than the one after which the workbench may give memory back (sizes from 10^7;
// `-` when not measured), and its ratio to the median; faults, idle flt: the minor page faults
// of the whole process during an edit (median) and during the idle edit (fresh memory: 1 per
// 4 KB page, 1 per 2 MB huge page).
//
// clang-format off
//   bench_gui                    every size up to 10^7, then the first-frame time of a fresh
//                                process
//   bench_gui --max 100000000    every size up to 10^8 (needs about 4 GB)
//   bench_gui --runs 30          edits per size
//   bench_gui --only 1000000     one size (and no first-frame runs)
//   bench_gui --no-idle          skip the idle edits (each waits 65 s)
//   bench_gui --pause 2000       the quiet spell before each edit, ms (120 by default: the
//                                window's debounce and a little more; a user's edits come
//                                seconds apart)
//   bench_gui --first-frame      (internal) print this process's start-to-first-frame time
//   bench_gui --op pad           the edits mirror-pad the input (REFLECT, SYMMETRIC) instead of
//                                slicing it (--op getitem, the default); --op gather: the
//                                edits gather its rows by index lists; --op boolean_mask,
//                                dynamic_partition, dynamic_stitch: by masks, partition numbers
//                                and indices of its shape; --op unique_with_counts: of int32
//                                values as many as its elements; --op one_hot: a tenth as many
//                                indices, depth 10
//   bench_gui --model FILE       a model file opened in the Model dock, until its rows show:
//                                whole, and its stages (read, check, the window's part)
//   bench_gui --npy FILE         the rows with FILE's array (a rank-2 .npy, mapped as File >
//                                Open maps it) as the input instead of a float32 fill
//   bench_gui --expr E --expr F  the first evaluation sets E, the edits F (and any further
//                                --expr, in turn) instead of x[...] and four slices
//   bench_gui --stages           after each row, where an edit's time went: every stage the
//                                window marks (the evaluation on the worker, its delivery, the
//                                views' sampling, replots) as ms since the edit, and the GUI
//                                thread's own time per kind of event (queued calls, timers,
//                                layout, paint); every GUI event of 8 CPU ms or more, and
//                                every GUI stall of 16 ms or more (when, its CPU time, user and
//                                system, its page faults); before them, the first evaluation
//                                mark by mark, with its page faults and CPU time
// clang-format on
#include "core/mapped_file.h"
#include "model/model_graph.h"
#include "protocol/npy.h"
#include "stall_meter.h"
#include "ui/model/attrtext.h"
#include "ui/model/modelnodetable.h"
#include "ui/model/stagetrace.h"
#include "ui/model/workspace.h"
#include "ui/views/heatmap.h"
#include "ui/views/palette.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/modeldock.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QMetaEnum>
#include <QProcess>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <sys/resource.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace ss;
using namespace ss::ui;
using ss::bench::msOf;
using ss::bench::StallMeter;
using ss::bench::threadCpuNs;
using ss::bench::threadUsage;

namespace {

qint64 bootTimeNs()
{
    timespec ts{};
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// When this process started, on the CLOCK_BOOTTIME scale (field 22 of /proc/self/stat, in clock
/// ticks since boot: 10 ms resolution, enough for a 500 ms target).
qint64 processStartNs()
{
    QFile stat(QStringLiteral("/proc/self/stat"));
    if (!stat.open(QIODevice::ReadOnly)) return -1;
    const QByteArray text = stat.readAll();
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    const qint64 ticks = fields.value(19).toLongLong();
    return ticks * (1'000'000'000 / sysconf(_SC_CLK_TCK));
}

/// Counts the frames the window paints, and when the last one since the measured edit was.
class FrameCounter : public QObject
{
public:
    int frames = 0;
    /// The edit being measured: when it started, and when a widget last painted since (-1: none).
    const QElapsedTimer* edit = nullptr;
    qint64 lastPaintNs = -1;
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint) {
            ++frames;
            if (edit) lastPaintNs = edit->nsecsElapsed();
        }
        return false;
    }
};

/// --stages: where each edit's time went.
bool g_stages = false;
/// The quiet spell before each edit, ms (--pause): the next edit evaluates at once after it.
int g_pauseMs = 120;

/// The GUI thread's own time per kind of event it handles at the top of the loop (an event
/// sent from inside another is counted in that one's time), in ms, since the last take().
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (!g_stages || m_depth > 0) return QApplication::notify(receiver, event);
        ++m_depth;
        const std::int64_t start = stagetrace::nowNs();
        const qint64 cpuStart = threadCpuNs();
        const rusage usageStart = threadUsage();
        const QEvent::Type type = event->type();
        const bool paint = type == QEvent::UpdateRequest || type == QEvent::Paint;
        if (paint) stagetrace::mark("gui: paint starts");
        const bool result = QApplication::notify(receiver, event);
        if (paint) stagetrace::mark("gui: paint ends");
        --m_depth;
        const std::string kind = type == QEvent::MetaCall         ? "queued calls to"
                                 : type == QEvent::Timer          ? "timers of"
                                 : type == QEvent::LayoutRequest  ? "layout"
                                 : paint                          ? "paint"
                                 : type == QEvent::DeferredDelete ? "deferred deletes"
                                                                  : "other events";
        // Timers and queued calls by receiver: which object's they were.
        const std::string who = type == QEvent::Timer || type == QEvent::MetaCall
                                    ? std::string(" ") + receiver->metaObject()->className()
                                    : std::string();
        m_ms[kind + who] += double(stagetrace::nowNs() - start) / 1e6;
        if (const double cpuMs = double(threadCpuNs() - cpuStart) / 1e6; cpuMs >= kLongEventMs) {
            const rusage usage = threadUsage();
            const QString name = receiver->objectName();
            // An event that is not a timer, queued call, layout or paint says which it is.
            const char* typeName = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
            const std::string eventType = kind != "other events" ? std::string()
                                          : typeName             ? std::string(" ") + typeName
                                                                 : " " + std::to_string(int(type));
            m_long.push_back(
                {kind + eventType + who + (name.isEmpty() ? "" : " '" + name.toStdString() + "'"),
                 double(stagetrace::nowNs() - start) / 1e6, cpuMs,
                 msOf(usage.ru_utime) - msOf(usageStart.ru_utime),
                 msOf(usage.ru_stime) - msOf(usageStart.ru_stime),
                 usage.ru_minflt - usageStart.ru_minflt});
        }
        return result;
    }
    std::map<std::string, double> take() { return std::exchange(m_ms, {}); }

    /// An event that took this much of the GUI thread's CPU time or more is listed on its own.
    static constexpr double kLongEventMs = 8;
    struct LongEvent
    {
        std::string what;
        double ms, cpuMs, userMs, systemMs;
        long faults;
    };
    /// The long events since the last call.
    std::vector<LongEvent> takeLong() { return std::exchange(m_long, {}); }

private:
    int m_depth = 0;
    std::map<std::string, double> m_ms;
    std::vector<LongEvent> m_long;
};

/// Per stage (a mark's name, with the view it belongs to), the ms since the edit at which it
/// was first and last reached, per edit; per kind of GUI-thread event, its ms per edit.
struct StageTimes
{
    std::map<std::string, std::vector<double>> first, last;
    std::map<std::string, std::vector<double>> guiMs;
    std::map<std::string, std::vector<double>> took; ///< since the previous mark of its kind
    /// The slowest edit's stages, in order: name, ms since the edit, took (-1: first of its kind).
    std::vector<std::tuple<std::string, double, double>> worst;
    double worstMs = -1;
};
StageTimes g_stageTimes;

/// Which view a heat map belongs to, for its stages' names.
std::string viewName(const void* who)
{
    if (!who) return {};
    for (QWidget* top : QApplication::topLevelWidgets())
        for (HeatMap* map : top->findChildren<HeatMap*>())
            if (map == who)
                for (QWidget* w = map; w; w = w->parentWidget())
                    if (auto* view = qobject_cast<TensorView*>(w))
                        return " (" + view->title().toStdString() + ")";
    return " (?)";
}

void collectStages(std::int64_t editNs, std::int64_t frameNs)
{
    std::map<std::string, std::pair<double, double>> seen;
    // The time since the previous mark of the same view (or, for the evaluation's marks, of the
    // same thread kind): how long the stage itself took, robust to when it started.
    std::map<std::pair<const void*, std::string>, double> previous;
    std::vector<std::tuple<std::string, double, double>> edit;
    for (const stagetrace::Mark& m : stagetrace::take()) {
        const double ms = double(m.ns - editNs) / 1e6;
        const std::string name = m.stage + viewName(m.who);
        auto [it, fresh] = seen.try_emplace(name, ms, ms);
        if (!fresh) it->second.second = ms;
        const std::string thread = std::string(m.stage).substr(0, 3);
        const auto key = std::pair(m.who, thread);
        const auto before = previous.find(key);
        const double took = before != previous.end() ? ms - before->second : -1;
        if (took >= 0 && fresh) g_stageTimes.took[name].push_back(took);
        edit.emplace_back(name, ms, took);
        previous[key] = ms;
    }
    if (double(frameNs) / 1e6 > g_stageTimes.worstMs) {
        g_stageTimes.worstMs = double(frameNs) / 1e6;
        g_stageTimes.worst = std::move(edit);
    }
    seen["frame (the last paint)"] = {double(frameNs) / 1e6, double(frameNs) / 1e6};
    for (const auto& [name, times] : seen) {
        g_stageTimes.first[name].push_back(times.first);
        g_stageTimes.last[name].push_back(times.second);
    }
    for (const auto& [kind, ms] : static_cast<TimedApplication*>(qApp)->take())
        g_stageTimes.guiMs[kind].push_back(ms);
}

double median(std::vector<double> values);

/// The slowest edit's marks in order: ms since the edit, and since the previous mark of its kind.
void printWorstMarks()
{
    for (const auto& [name, at, took] : g_stageTimes.worst) {
        std::printf("  %-52s %7.1f", name.c_str(), at);
        if (took >= 0) std::printf(" %7.1f", took);
        std::printf("\n");
    }
}

void printStages(std::int64_t elements)
{
    std::vector<std::pair<double, std::string>> order;
    for (const auto& [name, times] : g_stageTimes.first)
        order.emplace_back(median(times), name);
    std::sort(order.begin(), order.end());
    std::printf("%lld elements:\n  stage (ms since the edit, median over %zu edits)       first    "
                "last\n",
                static_cast<long long>(elements),
                g_stageTimes.first.empty() ? std::size_t(0)
                                           : g_stageTimes.first.begin()->second.size());
    for (const auto& [ms, name] : order) {
        const auto took = g_stageTimes.took.find(name);
        std::printf("  %-52s %7.1f %7.1f", name.c_str(), ms, median(g_stageTimes.last[name]));
        if (took != g_stageTimes.took.end()) std::printf(" %7.1f", median(took->second));
        std::printf("\n");
    }
    std::printf("  the slowest edit (%.1f ms), mark by mark                  at    took\n",
                g_stageTimes.worstMs);
    printWorstMarks();
    std::printf("  GUI thread's time per edit (median ms)\n");
    for (const auto& [kind, ms] : g_stageTimes.guiMs)
        std::printf("  %-52s %7.1f\n", kind.c_str(), median(ms));
    std::printf("  GUI events of %.0f CPU ms or more: ms, CPU ms (user, system), page faults\n",
                TimedApplication::kLongEventMs);
    for (const auto& e : static_cast<TimedApplication*>(qApp)->takeLong())
        std::printf("  %-52s %7.1f %7.1f (%.0f, %.0f) %7ld\n", e.what.c_str(), e.ms, e.cpuMs,
                    e.userMs, e.systemMs, e.faults);
    g_stageTimes = {};
}

/// --stages: the first evaluation (every buffer new), mark by mark, with its page faults and the
/// process's CPU time; the GUI thread's long events during it stay listed with the edits'.
void printFirstEvaluation(double faults, double cpuMs)
{
    std::printf("the first evaluation (%.1f ms, %.0f page faults, cpu %.1f ms), mark by mark      "
                "at    took\n",
                g_stageTimes.worstMs, faults, cpuMs);
    printWorstMarks();
}

/// This process's resident memory in bytes (/proc/self/statm).
double residentBytes()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly)) return 0;
    return statm.readAll().split(' ').value(1).toDouble() * double(sysconf(_SC_PAGESIZE));
}

/// The resident memory by kind of mapping (/proc/self/smaps): the heap, anonymous mappings
/// (the tensors' pool, thread stacks, large blocks), files (libraries, a mapped input): what
/// the B/el column is made of; then each file of 0.1 MB or more and what of it was written
/// (relocated pointers, static data: anonymous pages of the file's mapping), and each
/// anonymous mapping of 1 MB or more.
void printResidentParts(double elements)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly)) return;
    std::map<std::string, double> kb;
    struct Part
    {
        double rssKb = 0, anonymousKb = 0;
    };
    std::map<std::string, Part> files;                     // by file name
    std::vector<std::pair<std::string, double>> anonymous; // address range, resident KB
    std::string kind = "other", name, range;
    for (const QByteArray& line : smaps.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() >= 5 && fields[0].contains('-') && !line.startsWith("VmFlags")) {
            name = fields.value(5).toStdString();
            range = fields[0].toStdString();
            kind = name == "[heap]" ? "heap"
                   : name.empty()   ? "anonymous (pool, big blocks, stacks)"
                   : name[0] == '/' ? (QByteArray::fromStdString(name).endsWith(".npy")
                                           ? "the mapped input"
                                           : "files (libraries, fonts)")
                                    : name;
        } else if (fields.value(0) == "Rss:") {
            const double rss = fields.value(1).toDouble();
            kb[kind] += rss;
            if (rss >= 64 * 1024) // a big mapping on its own line
                kb["  of which one mapping of " + std::to_string(int(rss / 1024)) + " MB (" + kind +
                   ")"] += rss;
            if (!name.empty() && name[0] == '/') files[name].rssKb += rss;
            if (name.empty()) anonymous.emplace_back(range, rss);
        } else if (fields.value(0) == "Anonymous:" && !name.empty() && name[0] == '/') {
            files[name].anonymousKb += fields.value(1).toDouble();
        }
    }
    std::printf("  resident memory by mapping (MB; in all %.1f MB, %.2f B/el)\n",
                residentBytes() / 1048576, residentBytes() / elements);
    for (const auto& [what, size] : kb)
        if (size >= 1024) std::printf("  %-52s %7.1f\n", what.c_str(), size / 1024);
#ifdef __GLIBC__
    // What the heap holds: blocks in use, and freed ones kept (never trimmed on free).
    const struct mallinfo2 heap = mallinfo2();
    std::printf("  %-52s %7.1f\n  %-52s %7.1f\n", "  of the heap: in use",
                double(heap.uordblks) / 1048576, "  of the heap: freed, kept",
                double(heap.fordblks) / 1048576);
#endif
    std::vector<std::pair<double, std::string>> byFile;
    for (const auto& [file, part] : files)
        if (part.rssKb >= 100) byFile.emplace_back(part.rssKb, file);
    std::sort(byFile.rbegin(), byFile.rend());
    std::printf("  files of 0.1 MB or more (MB resident, of which written)\n");
    for (const auto& [rss, file] : byFile)
        std::printf("  %-52s %7.2f %7.2f\n", file.substr(file.rfind('/') + 1).c_str(), rss / 1024,
                    files[file].anonymousKb / 1024);
    std::printf("  anonymous mappings of 1 MB or more (MB resident)\n");
    for (const auto& [where, rss] : anonymous)
        if (rss >= 1024) std::printf("  %-52s %7.2f\n", where.c_str(), rss / 1024);
}

/// The GUI thread's gaps of StallMeter::kLongGapMs or more: in which edit they ended (-1: before
/// the first), how long after its start, and what they were.
void printLongGaps(const std::vector<StallMeter::Gap>& gaps,
                   const std::vector<std::int64_t>& editStarts)
{
    std::printf("  GUI stalls of %.0f ms or more: edit, its ms when the stall ended, wall ms, CPU "
                "ms (user, system), page faults, preemptions, end (CLOCK_MONOTONIC s, as perf "
                "record -k CLOCK_MONOTONIC stamps samples)\n",
                StallMeter::kLongGapMs);
    for (const StallMeter::Gap& gap : gaps) {
        const auto after = std::upper_bound(editStarts.begin(), editStarts.end(), gap.endNs);
        const long edit = long(after - editStarts.begin()) - 1;
        std::printf("  %8ld %8.1f %8.1f %8.1f (%.0f, %.0f) %8ld %4ld %.6f\n", edit,
                    edit >= 0 ? double(gap.endNs - editStarts[std::size_t(edit)]) / 1e6 : 0.0,
                    gap.wallMs, gap.cpuMs, gap.userMs, gap.systemMs, gap.faults, gap.preempted,
                    double(gap.endNs) / 1e9);
    }
}

/// Runs the event loop until done() or the timeout. The loop sleeps between events, as the
/// application's does: a loop that polls would take a core from the workers it waits for. A 1 ms
/// timer wakes it to look at done() and the clock.
bool waitFor(const std::function<bool()>& done, int timeoutMs)
{
    QTimer wake;
    wake.start(1);
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

void idle(int ms)
{
    QElapsedTimer clock;
    clock.start();
    waitFor([&] { return clock.elapsed() >= ms; }, ms + 1000);
}

/// --npy FILE: the input every edit slices, read (mapped) from the file, instead of a float32 fill.
std::optional<InputSource> g_npyInput;
/// --expr E (repeated): the expressions of the first evaluation and of the edits, instead of
/// x[...] and the four below.
std::vector<QString> g_expressions;

Workspace workspaceFor(const Shape& shape, const QString& expr)
{
    Workspace ws;
    ws.inputs.front().front().shape = shape;
    ws.inputs.front().front().dtype = DType::Float32;
    if (g_npyInput) ws.inputs.front().front() = *g_npyInput;
    ws.attrs = {{"expr", Attr(expr.toStdString())}};
    return ws;
}

Attr padding(std::int64_t top, std::int64_t bottom, std::int64_t left, std::int64_t right)
{
    Attr::List rows, columns;
    rows.push_back(Attr(top));
    rows.push_back(Attr(bottom));
    columns.push_back(Attr(left));
    columns.push_back(Attr(right));
    Attr::List both;
    both.push_back(Attr(rows));
    both.push_back(Attr(columns));
    return Attr(both);
}

/// The edits a row makes for `op` on a float32 input of `shape`: the first evaluation, then
/// four edits that keep most elements, applied in turn. getitem sets expressions; pad mirrors
/// the input (REFLECT and SYMMETRIC, whose provenance reads input elements twice); gather picks
/// rows of it by an index list (reversed, each row twice, a random choice, shifted by one), as
/// many rows as it has; boolean_mask, dynamic_partition, dynamic_stitch, unique_with_counts and
/// one_hot move its elements by masks, partition numbers, indices and values (all, random, every
/// other, ...).
std::vector<Workspace> editsFor(const std::string& op, const Shape& shape)
{
    if (op == "getitem" && !g_expressions.empty()) {
        std::vector<Workspace> edits;
        for (const QString& expr : g_expressions)
            edits.push_back(workspaceFor(shape, expr));
        return edits;
    }
    if (op == "getitem")
        return {workspaceFor(shape, QStringLiteral("x[...]")),
                workspaceFor(shape, QStringLiteral("x[::-1, 1:]")),
                workspaceFor(shape, QStringLiteral("x[1:, ::-1]")),
                workspaceFor(shape, QStringLiteral("x[::2, :]")),
                workspaceFor(shape, QStringLiteral("x[:, ::-2]"))};
    Workspace ws = exampleWorkspace(*findOp(op));
    InputSource& input = ws.inputs.front().front();
    input.shape = shape;
    input.dtype = DType::Float32;
    input.fill = FillKind::Arange;
    if (op == "gather") {
        const std::int64_t rows = shape.front();
        std::mt19937_64 rng(1);
        auto gather = [&](auto rowOf) {
            std::vector<std::int64_t> picked;
            for (std::int64_t i = 0; i < rows; ++i)
                picked.push_back(rowOf(i));
            Workspace edit = ws;
            edit.attrs = {{"axis", Attr(std::int64_t(0))}};
            edit.inputs[1] = {dataSource(Tensor::fromInts(DType::Int32, {rows}, picked))};
            return edit;
        };
        return {gather([](std::int64_t i) { return i; }),
                gather([&](std::int64_t i) { return rows - 1 - i; }),
                gather([](std::int64_t i) { return i / 2; }),
                gather([&](std::int64_t) { return std::int64_t(rng() % std::uint64_t(rows)); }),
                gather([&](std::int64_t i) { return (i + 1) % rows; })};
    }
    // The row-picking ops, each element its own row: a mask, partition numbers or values of
    // the input's size, and one_hot of a tenth as many indices at depth 10.
    const std::int64_t n = numElements(shape);
    std::mt19937_64 rng(1);
    auto ints = [&](DType type, const Shape& s, auto valueOf) {
        Tensor t = Tensor::empty(type, s);
        for (std::int64_t i = 0; i < t.size(); ++i)
            t.setFromInt(i, valueOf(i));
        return dataSource(t);
    };
    auto random = [&](std::int64_t below) {
        return [&rng, below](std::int64_t) { return std::int64_t(rng() % std::uint64_t(below)); };
    };
    auto withInput = [&](int slot, InputSource source, Attrs attrs) {
        Workspace edit = ws;
        edit.inputs[std::size_t(slot)] = {std::move(source)};
        edit.attrs = std::move(attrs);
        return edit;
    };
    if (op == "boolean_mask") {
        auto masked = [&](auto bitOf) { return withInput(1, ints(DType::Bool, shape, bitOf), {}); };
        return {masked([](std::int64_t) { return 1; }), masked(random(2)),
                masked([](std::int64_t i) { return i % 2; }),
                masked([n](std::int64_t i) { return std::int64_t(i < n / 2); }),
                masked([&](std::int64_t) { return std::int64_t(rng() % 10 != 0); })};
    }
    if (op == "dynamic_partition") {
        auto parts = [&](std::int64_t count, auto partOf) {
            return withInput(1, ints(DType::Int32, shape, partOf),
                             {{"num_partitions", Attr(count)}});
        };
        return {parts(1, [](std::int64_t) { return 0; }), parts(4, random(4)),
                parts(3, [](std::int64_t i) { return i % 3; }), parts(8, random(8)),
                parts(2, [n](std::int64_t i) { return std::int64_t(i >= n / 3); })};
    }
    if (op == "unique_with_counts") {
        auto values = [&](auto valueOf) {
            return withInput(0, ints(DType::Int32, {n}, valueOf), {});
        };
        return {values([](std::int64_t i) { return i; }), values(random(n / 4)),
                values([](std::int64_t i) { return i / 2; }), values(random(n)),
                values([](std::int64_t i) { return i % 1000; })};
    }
    if (op == "dynamic_stitch") {
        // One indices and one data tensor of the input's shape: every element its own row.
        InputSource data = ws.inputs.front().front();
        auto stitched = [&](auto rowOf) {
            Workspace edit = ws;
            edit.inputs = {{ints(DType::Int32, shape, rowOf)}, {data}};
            edit.attrs = {};
            return edit;
        };
        return {stitched([](std::int64_t i) { return i; }),
                stitched([n](std::int64_t i) { return n - 1 - i; }),
                stitched([](std::int64_t i) { return i / 2; }), stitched(random(n)),
                stitched([n](std::int64_t i) { return (i + 1) % n; })};
    }
    if (op == "one_hot") {
        const Shape indices{shape.front(), shape.back() / 10};
        auto hot = [&](std::int64_t axis, auto valueOf) {
            return withInput(0, ints(DType::Int32, indices, valueOf),
                             {{"depth", Attr(std::int64_t(10))}, {"axis", Attr(axis)}});
        };
        return {hot(-1, [](std::int64_t i) { return i % 10; }), hot(-1, random(10)),
                hot(-1, random(12)), hot(0, random(10)),
                hot(-1, [](std::int64_t i) { return i % 7; })};
    }
    auto pad = [&](const char* mode, Attr paddings) {
        Workspace edit = ws;
        edit.attrs = {{"paddings", std::move(paddings)}, {"mode", Attr(std::string(mode))}};
        return edit;
    };
    return {pad("CONSTANT", padding(0, 0, 0, 0)), pad("REFLECT", padding(1, 2, 3, 1)),
            pad("SYMMETRIC", padding(2, 1, 1, 3)), pad("REFLECT", padding(3, 3, 2, 2)),
            pad("SYMMETRIC", padding(1, 1, 4, 0))};
}

/// An edit as the stage tables name it: the expression, or the op and its attributes.
std::string describe(const Workspace& ws)
{
    std::string text = ws.op;
    for (const auto& [name, value] : ws.attrs)
        text += " " + name + "=" + attrText(value).toStdString();
    return text;
}

struct Row
{
    std::int64_t elements;
    double firstMs, medianMs, worstMs, workerMs, stallMs, busyMs, bytesPerElement;
    double idleMs = -1; // -1: not measured
    int edits;
    double faultsPerEdit = 0; // median minor page faults of an edit, whole process
    double idleFaults = -1;
    double cpuMs = 0; // median CPU time of the whole process during an edit (it includes the 30 ms
                      // wait for the last frame, and what other threads do then)
};

/// CPU time of the whole process so far (every thread, user and system), in ms.
double processCpuMs()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

/// Minor page faults of the whole process so far.
double minorFaults()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_minflt);
}

/// The resident memory and its file-backed part (statm's third field: resident shared and
/// file-backed pages) after the last row's edits, while its window is still open: once it
/// closes, what it showed is freed (and partly kept for reuse).
double g_residentAfterEdits = 0, g_fileBackedAfterEdits = 0;

void noteResident()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly)) return;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    const double page = double(sysconf(_SC_PAGESIZE));
    g_residentAfterEdits = fields.value(1).toDouble() * page;
    g_fileBackedAfterEdits = fields.value(2).toDouble() * page;
}

/// Longer than the quiet spell after which the workbench may give kept memory back (60 s).
constexpr int kLongIdleMs = 65000;

double median(std::vector<double> values)
{
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

/// Applies `ws` as a typed edit and waits for its last frame (up to 30 ms after the window
/// settled: the frame that shows the settled result may come just before the last background
/// job is seen to end, the views painting what it delivered before the tracker goes idle, or
/// just after). Returns the latency in ms, or -1 if it did not settle.
double timedEdit(MainWindow& window, FrameCounter& frames, const Workspace& ws)
{
    if (g_stages) {
        (void)stagetrace::take();
        (void)static_cast<TimedApplication*>(qApp)->take();
    }
    const std::int64_t editNs = stagetrace::nowNs();
    QElapsedTimer clock;
    clock.start();
    frames.edit = &clock;
    frames.lastPaintNs = -1;
    window.setWorkspace(ws, QStringLiteral("bench"));
    if (!waitFor([&] { return window.isSettled(); }, 600000)) {
        frames.edit = nullptr;
        return -1;
    }
    const qint64 settledNs = clock.nsecsElapsed();
    if (const auto eval = window.lastEvaluation(); eval && !eval->ok)
        std::fprintf(stderr, "bench_gui: the evaluation failed: %s\n", qPrintable(eval->message));
    idle(30);
    frames.edit = nullptr;
    const qint64 frameNs = frames.lastPaintNs >= 0 ? frames.lastPaintNs : settledNs;
    if (g_stages) collectStages(editNs, frameNs);
    return double(frameNs) / 1e6;
}

Row measure(const std::string& op, const Shape& shape, int runs, bool idleEdit)
{
    const std::vector<Workspace> edits = editsFor(op, shape);
    MainWindow window;
    window.forgetSession();
    window.show();
    FrameCounter frames;
    qApp->installEventFilter(&frames);                  // every widget, including views made later
    waitFor([&] { return window.isSettled(); }, 30000); // the new window's own small evaluation
    // A quiet spell, as before every edit: the window's own evaluation just started the 100 ms
    // debounce, and an edit within it waits for its end (that wait is not the evaluation's).
    idle(120);
    const double firstFaults = minorFaults();
    const double firstCpu = processCpuMs();
    const double firstMs = timedEdit(window, frames, edits.front());
    if (firstMs < 0) std::fprintf(stderr, "the first evaluation did not settle\n");
    if (g_stages) printFirstEvaluation(minorFaults() - firstFaults, processCpuMs() - firstCpu);
    g_stageTimes = {}; // the stages of the edits below, not of the first evaluation
    // Alternate edits that keep most elements, so both views change a lot.
    std::vector<double> latencies;
    std::vector<double> workers;
    std::vector<double> faults;
    const std::size_t kinds = edits.size() - 1;     // the edits after the first evaluation
    std::vector<std::vector<double>> byEdit(kinds); // latencies of each
    std::vector<double> cpu;                        // the process's CPU time during each edit
    std::vector<std::int64_t> editStarts;           // when each edit started (stagetrace's clock)
    StallMeter stalls;
    stalls.start();
    for (int i = 0; i < runs; ++i) {
        idle(g_pauseMs); // a quiet spell: the next edit evaluates at once
        const double faultsBefore = minorFaults();
        const double cpuBefore = processCpuMs();
        editStarts.push_back(stagetrace::nowNs());
        const double ms = timedEdit(window, frames, edits[1 + std::size_t(i) % kinds]);
        faults.push_back(minorFaults() - faultsBefore);
        cpu.push_back(processCpuMs() - cpuBefore);
        if (ms < 0) {
            std::fprintf(stderr, "an edit did not settle\n");
            break;
        }
        latencies.push_back(ms);
        byEdit[std::size_t(i) % kinds].push_back(ms);
        workers.push_back(window.lastEvaluation()->totalMs);
    }
    stalls.stop();
    noteResident();
    Row row{numElements(shape),
            firstMs,
            median(latencies),
            latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end()),
            median(workers),
            stalls.wallMs(),
            stalls.cpuMs(),
            residentBytes() / double(numElements(shape)),
            -1,
            int(latencies.size()),
            median(faults)};
    row.cpuMs = median(cpu);
    if (g_stages) {
        printStages(numElements(shape)); // before the idle edit, which would mix in
        std::printf("  latency of each edit (median, worst ms)\n");
        for (std::size_t k = 0; k < kinds; ++k)
            if (!byEdit[k].empty())
                std::printf("  %-52s %7.1f %7.1f\n", describe(edits[1 + k]).c_str(),
                            median(byEdit[k]),
                            *std::max_element(byEdit[k].begin(), byEdit[k].end()));
        std::printf("  each edit in order: latency, worker, page faults, cpu ms\n");
        for (std::size_t i = 0; i < latencies.size(); ++i)
            std::printf("  %2zu %-49s %7.1f %7.1f %7.0f %7.1f\n", i + 1,
                        describe(edits[1 + i % kinds]).c_str(), latencies[i], workers[i],
                        faults[i], cpu[i]);
        printResidentParts(double(numElements(shape)));
        printLongGaps(stalls.longGaps(), editStarts);
    }
    if (idleEdit) {
        idle(kLongIdleMs);
        const double faultsBefore = minorFaults();
        row.idleMs = timedEdit(window, frames, edits[1 + std::size_t(runs) % kinds]);
        row.idleFaults = minorFaults() - faultsBefore;
    }
    return row;
}

int firstFrame()
{
    const qint64 start = processStartNs();
    int argc = 1;
    char name[] = "bench_gui";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    applyTheme(app, Theme::Light);
    MainWindow window;
    window.forgetSession();
    FrameCounter frames;
    qApp->installEventFilter(&frames);
    window.show();
    waitFor([&] { return frames.frames > 0; }, 30000);
    std::printf("%.1f\n", double(bootTimeNs() - start) / 1e6);
    return 0;
}

/// Median and worst of `runs` timings of `f` in ms.
template <typename F> std::pair<double, double> timed(int runs, F&& f)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer clock;
        clock.start();
        f();
        ms.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    return {median(ms), *std::max_element(ms.begin(), ms.end())};
}

/// `path` opened in the Model dock of one window `runs` times, each until the dock has its rows
/// and the window painted them; then the stages alone, in this process: reading the file (the
/// reader and ONNX's checker, which runs in a child process) and checking every node. What is
/// left of the whole is the window's part: delivering the rows, the table and its paint.
int benchModel(const QString& path, int runs)
{
    MainWindow window;
    window.forgetSession();
    window.show();
    FrameCounter frames;
    qApp->installEventFilter(&frames);
    waitFor([&] { return window.isSettled(); }, 30000);
    ModelDock* dock = window.docks()->model();
    int rows = 0;
    const auto [wholeMs, wholeWorst] = timed(runs, [&] {
        QElapsedTimer clock;
        clock.start();
        frames.edit = &clock;
        frames.lastPaintNs = -1;
        dock->openModel(path);
        waitFor([&] { return !dock->isLoading(); }, 600000);
        idle(30); // the frame that shows the rows
        frames.edit = nullptr;
        rows = dock->table()->rowCount();
    });
    const std::string file = path.toStdString();
    ss::model::ModelFile model;
    const auto [readMs, readWorst] = timed(runs, [&] { model = ss::model::readModelFile(file); });
    const Limits limits = window.engine()->limits();
    const auto [checkMs, checkWorst] =
        timed(runs, [&] { (void)ModelNodeTable::checkAll(model, limits); });
    std::printf("model %s: %d rows\n", qPrintable(path), rows);
    std::printf("%-34s %9s %9s\n", "stage (ms, one process)", "median", "worst");
    std::printf("%-34s %9.1f %9.1f\n", "open until the rows are painted", wholeMs, wholeWorst);
    std::printf("%-34s %9.1f %9.1f\n", "  read (reader + ONNX checker)", readMs, readWorst);
    std::printf("%-34s %9.1f %9.1f\n", "  check every node", checkMs, checkWorst);
    std::printf("%-34s %9.1f %9s\n", "  the window's part (the rest)", wholeMs - readMs - checkMs,
                "-");
    std::printf("(the whole includes up to 30 ms of waiting for the last frame)\n");
    return rows > 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse(); // as the slicescope executable does
    if (argc > 1 && std::strcmp(argv[1], "--first-frame") == 0) return firstFrame();
    int runs = 20;
    long long only = 0;
    long long max = 10'000'000;
    bool idleEdits = true;
    QString model;
    std::string op = "getitem";
    std::string npy;
    bool runsGiven = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--no-idle") == 0) idleEdits = false;
        if (std::strcmp(argv[i], "--stages") == 0) g_stages = true;
        if (i + 1 >= argc) continue;
        if (std::strcmp(argv[i], "--runs") == 0) {
            runs = std::max(1, std::atoi(argv[i + 1]));
            runsGiven = true;
        }
        if (std::strcmp(argv[i], "--only") == 0) only = std::atoll(argv[i + 1]);
        if (std::strcmp(argv[i], "--pause") == 0) g_pauseMs = std::max(1, std::atoi(argv[i + 1]));
        if (std::strcmp(argv[i], "--max") == 0) max = std::atoll(argv[i + 1]);
        if (std::strcmp(argv[i], "--model") == 0) model = QString::fromLocal8Bit(argv[i + 1]);
        if (std::strcmp(argv[i], "--op") == 0) op = argv[i + 1];
        if (std::strcmp(argv[i], "--npy") == 0) npy = argv[i + 1];
        if (std::strcmp(argv[i], "--expr") == 0)
            g_expressions.push_back(QString::fromLocal8Bit(argv[i + 1]));
    }
    const std::vector<std::string> ops{"getitem",           "pad",           "gather",
                                       "boolean_mask",      "one_hot",       "unique_with_counts",
                                       "dynamic_partition", "dynamic_stitch"};
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) {
        std::fprintf(stderr,
                     "bench_gui: --op takes getitem, pad, gather, boolean_mask, one_hot, "
                     "unique_with_counts, dynamic_partition or dynamic_stitch, not '%s'\n",
                     op.c_str());
        return 2;
    }
    if (g_expressions.size() == 1 || (!g_expressions.empty() && op != "getitem")) {
        std::fprintf(stderr, "bench_gui: --expr is given twice or more (the first evaluation, then "
                             "the edits), for --op getitem\n");
        return 2;
    }
    if (!npy.empty() && op != "getitem") {
        std::fprintf(stderr, "bench_gui: --npy slices the file's array: it takes no --op %s\n",
                     op.c_str());
        return 2;
    }

    TimedApplication app(argc, argv);
    stagetrace::enable(g_stages);
    QApplication::setOrganizationName(QStringLiteral("SliceScopeBench"));
    QApplication::setApplicationName(QStringLiteral("SliceScopeBench"));
    applyTheme(app, Theme::Light);
    if (!model.isEmpty()) return benchModel(model, runsGiven ? runs : 5);
    if (!npy.empty()) {
        // Read as the window's File > Open reads it: mapped (EngineClient turns mapping on).
        const bool mapping = npyMapping();
        setNpyMapping(true);
        try {
            const Tensor t = readNpyFile(npy, Limits::machineDefault());
            if (t.rank() != 2) throw OpError(ErrorCode::BadRequest, npy + " is not of rank 2");
            std::printf("input: %s, %s %s, %s\n", npy.c_str(),
                        std::string(dtypeName(t.dtype())).c_str(), shapeString(t.shape()).c_str(),
                        isMappedFile(t.raw()) ? "mapped" : "read into memory");
            g_npyInput = dataSource(t);
            only = t.size();
        } catch (const OpError& e) {
            std::fprintf(stderr, "bench_gui: %s\n", e.what());
            return 1;
        }
        setNpyMapping(mapping);
    }
    std::printf("%10s %6s %8s %12s %9s %9s %9s %9s %6s %8s %6s %8s %8s %7s\n", "elements", "edits",
                "first", "latency med", "worst", "worker", "stall", "busy", "B/el", "idle", "x med",
                "faults", "idle flt", "cpu");
    std::vector<Shape> shapes = {{25, 40}, {250, 400}, {1000, 1000}, {2500, 4000}, {10000, 10000}};
    if (g_npyInput) shapes = {g_npyInput->shape};
    for (const Shape& shape : shapes) {
        const std::int64_t n = numElements(shape);
        if (only != 0 ? n != only : n > max) continue;
        const bool big = n >= 10'000'000;
        const Row row = measure(op, shape, big ? std::max(5, runs / 4) : runs, big && idleEdits);
        char idleText[32] = "-", ratioText[32] = "-", idleFaultText[32] = "-";
        if (row.idleMs >= 0 && row.medianMs > 0) {
            std::snprintf(idleText, sizeof idleText, "%.1f", row.idleMs);
            std::snprintf(ratioText, sizeof ratioText, "%.2f", row.idleMs / row.medianMs);
            std::snprintf(idleFaultText, sizeof idleFaultText, "%.0f", row.idleFaults);
        }
        std::printf(
            "%10lld %6d %8.1f %12.1f %9.1f %9.1f %9.1f %9.1f %6.1f %8s %6s %8.0f %8s %7.1f\n",
            static_cast<long long>(row.elements), row.edits, row.firstMs, row.medianMs, row.worstMs,
            row.workerMs, row.stallMs, row.busyMs, row.bytesPerElement, idleText, ratioText,
            row.faultsPerEdit, idleFaultText, row.cpuMs);
        std::fflush(stdout);
    }

    if (g_npyInput)
        std::printf("resident after the edits, the window open: %.0f MB: %.0f MB file-backed (the "
                    "mapped input's page cache and the libraries), %.0f MB the process's own\n",
                    g_residentAfterEdits / 1e6, g_fileBackedAfterEdits / 1e6,
                    (g_residentAfterEdits - g_fileBackedAfterEdits) / 1e6);
    if (only != 0) return 0;
    // A fresh process, so that loading the libraries counts.
    std::vector<double> firsts;
    for (int i = 0; i < 5; ++i) {
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--first-frame")});
        if (!child.waitForFinished(60000)) break;
        firsts.push_back(child.readAllStandardOutput().trimmed().toDouble());
    }
    std::sort(firsts.begin(), firsts.end());
    if (!firsts.empty())
        std::printf("process start to first frame: median %.0f ms, worst %.0f ms (%zu starts)\n",
                    firsts[firsts.size() / 2], firsts.back(), firsts.size());
    return 0;
}
