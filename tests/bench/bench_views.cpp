// SPDX-License-Identifier: GPL-3.0-or-later
// bench_views: the tensor view alone, without the engine. For inputs of 10^3 to 10^7 elements it
// measures how long a new read order takes to be drawn (setReadOrder until everything computed
// in the background has landed and a frame has been painted), a new tensor of the same size (an
// output view on every edit), a linked-hover outline, and the longest stretch the GUI thread was
// busy meanwhile, from a 1 ms timer on the GUI thread that notes the gaps between its ticks.
// Columns (ms): order, tensor, outline: median from the call until the view has settled and
// painted; frame: median repaint of the whole view; stall: longest gap between timer ticks in
// wall time; busy: the same gap counted in the GUI thread's CPU time (without time the OS gave
// to other processes).
#include "stall_meter.h"
#include "ui/views/tensorview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

using namespace ss;
using namespace ss::ui;
using ss::bench::StallMeter;

namespace {

/// Runs the event loop until the view has applied everything, then paints one frame. The loop
/// sleeps between events (processEvents with a time limit would poll, taking a core from the
/// workers); the stall meter's timer wakes it at least every millisecond.
void settleAndPaint(TensorView& view)
{
    while (!view.isSettled())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents();
    view.repaint();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// Read order k: every `step`-th element from a moving start, read backwards, as a strided,
/// reversed slice would.
ReadOrder makeOrder(std::int64_t n, int k)
{
    StoredPositions order(std::size_t(n), -1);
    const std::int64_t step = 2 + k % 3;
    ReadPosition position = 0;
    for (std::int64_t i = n - 1 - k; i >= 0; i -= step)
        order[std::size_t(i)] = position++;
    return storedReadOrder(std::move(order));
}

struct Row
{
    const char* name;
    Shape shape;
};

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int runs =
        argc > 2 && std::strcmp(argv[1], "--runs") == 0 ? std::max(3, std::atoi(argv[2])) : 9;

    const std::vector<Row> rows = {
        {"10^3 (10x100, cells)", {10, 100}},
        {"10^4 (100x100, cells)", {100, 100}},
        {"10^5 (100x1000, heat map)", {100, 1000}},
        {"10^6 (1000x1000, heat map)", {1000, 1000}},
        {"10^7 (10x1000x1000, heat map)", {10, 1000, 1000}},
    };
    std::printf("%-30s %9s %9s %9s %9s %9s %9s\n", "input", "order", "tensor", "outline", "frame",
                "stall", "busy");
    for (const Row& row : rows) {
        TensorView view;
        view.resize(1200, 800);
        view.show();
        // Everything the view is given is made first: only the view's own work is measured.
        const Tensor tensor = makeFilled(DType::Float32, row.shape, Fill::Random, 1, Limits{});
        const Tensor other = makeFilled(DType::Float32, row.shape, Fill::Random, 2, Limits{});
        std::vector<ReadOrder> orders;
        for (int k = 0; k < runs; ++k)
            orders.push_back(makeOrder(tensor.size(), k));
        // One untimed round first: fonts, glyph caches and the worker threads warm up.
        view.setTensor(other, QStringLiteral("input"));
        view.setReadOrder(orders.back());
        view.setOutlined({0});
        settleAndPaint(view);
        view.setOutlined({});
        view.setTensor(tensor, QStringLiteral("input"));
        settleAndPaint(view);

        StallMeter stall;
        stall.start();
        std::vector<double> orderMs, tensorMs, outlineMs, frameMs;
        QElapsedTimer t;
        for (int k = 0; k < runs; ++k) {
            t.start();
            view.setReadOrder(orders[std::size_t(k)]);
            settleAndPaint(view);
            orderMs.push_back(double(t.nsecsElapsed()) / 1e6);

            t.start();
            view.setTensor(k % 2 == 0 ? other : tensor, QStringLiteral("input"));
            settleAndPaint(view);
            tensorMs.push_back(double(t.nsecsElapsed()) / 1e6);

            t.start();
            view.setOutlined({tensor.size() / 2 + k});
            settleAndPaint(view);
            outlineMs.push_back(double(t.nsecsElapsed()) / 1e6);

            t.start();
            view.repaint();
            frameMs.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        stall.stop();
        std::printf("%-30s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n", row.name, median(orderMs),
                    median(tensorMs), median(outlineMs), median(frameMs), stall.wallMs(),
                    stall.cpuMs());
    }
    return 0;
}
