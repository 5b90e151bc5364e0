// SPDX-License-Identifier: GPL-3.0-or-later
// The window under the memory budget: an input too big for the memory available now is refused
// before it is made, with the reason in the message strip, and the window goes on working.
// /proc/meminfo is a file in a temporary directory (setAvailableMemoryRoot()), so the machine
// running the test never has to run short of memory.
#include "automation_testing.h"
#include "core/memory_budget.h"
#include "ui/views/tensorview.h"
#include "workbench_testing.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::ui;

namespace {

bool isOk(const Json& answer)
{
    const Json* ok = answer.find("ok");
    return ok && ok->isBool() && ok->toBool();
}

} // namespace

class TestMemoryBudget : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void hugeInputsAreRefusedInTheWindow_data();
    void hugeInputsAreRefusedInTheWindow();
    void heatMapSamplingTakesNoMemoryPerElement();
};

void TestMemoryBudget::hugeInputsAreRefusedInTheWindow_data()
{
    QTest::addColumn<QByteArray>("dtype");
    QTest::addColumn<QByteArray>("shape");
    QTest::addColumn<QString>("refused");
    // 2*10^9 int8 took the window to 1.95 GB; float64 (2000000, 1000) climbed to 14 GB.
    QTest::newRow("2*10^9 int8") << QByteArray("int8") << QByteArray("[2, 1000000000]")
                                 << "the input 'input' of shape [2,1000000000] int8 needs 2.0 GB "
                                    "(2000000000 bytes); ";
    QTest::newRow("float64 (2000000, 1000)")
        << QByteArray("float64") << QByteArray("[2000000, 1000]")
        << "the input 'input' of shape [2000000,1000] float64 needs 16.0 GB (16000000000 "
           "bytes); ";
}

void TestMemoryBudget::hugeInputsAreRefusedInTheWindow()
{
    QFETCH(QByteArray, dtype);
    QFETCH(QByteArray, shape);
    QFETCH(QString, refused);
    QTemporaryDir root;
    QVERIFY(root.isValid());
    QVERIFY(QDir().mkpath(root.filePath("proc")));
    QFile meminfo(root.filePath("proc/meminfo"));
    QVERIFY(meminfo.open(QIODevice::WriteOnly));
    meminfo.write("MemTotal:       24000000 kB\nMemAvailable:     400000 kB\n");
    meminfo.close();

    // The machine's own limit stays (physical memory, a cgroup's); what is available is faked.
    setAvailableMemoryRoot(root.path().toStdString());
    const auto guard = qScopeGuard([] { setAvailableMemoryRoot(""); });
    MainWindow w;
    w.show();
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    const std::int64_t before = residentBytes();
    QVERIFY(isOk(client.ask(QByteArray(R"({"cmd": "set_dtype", "dtype": ")") + dtype + "\"}")));
    QVERIFY(isOk(client.ask(QByteArray(R"({"cmd": "set_shape", "shape": )") + shape + "}")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    QVERIFY2(w.message().contains(refused), qPrintable(w.message()));
    QVERIFY2(w.message().contains(QStringLiteral(" is available (MemAvailable")),
             qPrintable(w.message()));
    // Refused before it was made: nothing near its size was allocated.
    QVERIFY2(residentBytes() - before < 200000000,
             qPrintable(QString::number(residentBytes() - before)));
    // The window goes on: a size that fits is evaluated, and the message goes.
    QVERIFY(isOk(client.ask(R"({"cmd": "set_shape", "shape": [3, 4]})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    QVERIFY2(w.message().isEmpty(), qPrintable(w.message()));
}

namespace {

// The process's peak resident memory (VmHWM), in bytes; reset by resetPeakResident().
std::int64_t peakResident()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').front().toLongLong() * 1024;
    return -1;
}

bool resetPeakResident()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    return clear.open(QIODevice::WriteOnly) && clear.write("5") == 1;
}

} // namespace

// A heat map's selection layer reads each face row a chunk at a time: it read a whole row of
// columns at once on every worker, 4 bytes per element (200 MB per worker for a [2, 50000000]
// face), outside any budget, and an int8 input of 50 million elements got the window killed in
// a 400 MB memory cgroup.
void TestMemoryBudget::heatMapSamplingTakesNoMemoryPerElement()
{
    constexpr std::int64_t n = 30000000;
    const Tensor tensor = Tensor::zeros(DType::Int8, {1, n});
    StoredPositions positions(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        positions[std::size_t(i)] = StoredPosition(i);
    const ReadOrder order = storedReadOrder(std::move(positions));
    TensorView view;
    view.resize(800, 400);
    view.show();
    view.setTensor(tensor, QStringLiteral("x"));
    QVERIFY(view.isHeatMap());
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 30000);
    if (!resetPeakResident()) QSKIP("cannot reset the peak resident size (/proc/self/clear_refs)");
    const std::int64_t before = peakResident();
    view.setReadOrder(order, ReadOrderSummary{n, 0, n - 1}, n - 1);
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 30000);
    QCOMPARE(view.selection().selected, n);
    // The row alone was 120 MB on each worker.
    QVERIFY2(peakResident() - before < 40000000,
             qPrintable(QString::number(peakResident() - before)));
}

QTEST_MAIN(TestMemoryBudget)
#include "tst_memorybudget.moc"
