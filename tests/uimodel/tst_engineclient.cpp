// SPDX-License-Identifier: GPL-3.0-or-later
// The engine client on the shared pool: evaluations delivered on its thread, and work it runs
// for its effect (the autosave) finished before the client is gone, although the pool, shared
// with every view, lives on. Links the model library alone: no widgets.
#include "core/mapped_file.h"
#include "protocol/npy.h"
#include "ui/model/engineclient.h"
#include "ui/model/stagetrace.h"
#include "ui/model/workerpool.h"
#include "ui/model/workspacefile.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <vector>

using namespace ss;
using namespace ss::ui;

Q_DECLARE_METATYPE(std::vector<std::vector<ss::ui::InputSource>>)
Q_DECLARE_METATYPE(ss::Attrs)

class TestEngineClient : public QObject
{
    Q_OBJECT
private slots:
    void evaluatesOnThePool();
    void evaluationsAreBudgetedWhole_data();
    void evaluationsAreBudgetedWhole();
    void npyInputsAreMappedAndChecked();
    void aBigMappedInputLeavesResidentMemoryAfterItsOp();
    void theNextOutputsBufferIsReady();
    void anEvaluationStopsThePreparation();
    void aBufferIsPreparedOnlyWhenNoneIsFreed();
};

void TestEngineClient::evaluatesOnThePool()
{
    EngineClient client;
    QSignalSpy evaluated(&client, &EngineClient::evaluated);
    Workspace ws;
    ws.attrs = {{"expr", Attr("x[1:, ::-1]")}};
    client.evaluate(ws);
    QVERIFY(client.isBusy());
    // A newer evaluation supersedes it: only the newer result arrives.
    ws.attrs = {{"expr", Attr("x[0]")}};
    const quint64 newest = client.evaluate(ws);
    QVERIFY(evaluated.wait(10000));
    // Shows that the superseded result never arrives, so there is no event to wait for: a
    // bounded wait in which it would have been delivered.
    QTest::qWait(50);
    QCOMPARE(evaluated.count(), 1);
    const auto eval = evaluated.front().front().value<std::shared_ptr<const Evaluation>>();
    QCOMPARE(eval->generation, newest);
    QVERIFY(eval->ok);
    QCOMPARE(eval->outputs.front().shape(), (Shape{4}));
    QVERIFY(!client.isBusy());
}

namespace {

InputSource filled(DType dtype, Shape shape)
{
    InputSource source;
    source.dtype = dtype;
    source.shape = std::move(shape);
    return source;
}

InputSource literal(const QString& text)
{
    InputSource source;
    source.fill = FillKind::Literal;
    source.literal = text;
    return source;
}

} // namespace

// Everything an evaluation keeps is charged to one budget before it is allocated, as a CLI
// request's is: the read orders the workbench stores (4 bytes per input and output element, 80 MB
// for a 10^7-element input that a strided_slice_assign writes two elements of; a gather keeps
// only its params' order, 40 MB for 10^7 params of which it reads two, 4 KB if they are 1000 rows
// of 10^4), and the inputs, sized
// together before the
// first is made. Neither was charged: the GUI was killed in a memory cgroup
// by int8 inputs whose tensors fitted.
void TestEngineClient::evaluationsAreBudgetedWhole_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<std::vector<std::vector<InputSource>>>("inputs");
    QTest::addColumn<Attrs>("attrs");
    QTest::addColumn<qint64>("limit");
    QTest::addColumn<QString>("refused");
    QTest::newRow("stored read orders")
        << "strided_slice_assign"
        << std::vector<std::vector<InputSource>>{{filled(DType::Int8, {10000000})}, {[] {
                                                     InputSource value = literal("[1, 2]");
                                                     value.dtype = DType::Int8;
                                                     return value;
                                                 }()}}
        << Attrs{{"begin", Attr::ints({0})}, {"end", Attr::ints({2})}, {"strides", Attr::ints({1})}}
        << qint64(30000000)
        << "the read orders the workbench keeps for 10000002 input and 10000000 output elements "
           "(4 bytes each) needs 80.0 MB (80000008 bytes); ";
    QTest::newRow("a gather's read order")
        << "gather"
        << std::vector<std::vector<InputSource>>{{filled(DType::Int8, {10000000})},
                                                 {literal("[3, 1]")}}
        << Attrs{} << qint64(30000000)
        << "the read order the workbench keeps for the 10000000 elements an index reads from (4 "
           "bytes each) needs 40.0 MB (40000000 bytes); ";
    // Rows of params are blocks that a gather reads whole: one position per row, 4 KB here.
    QTest::newRow("a gather of rows: a position per row")
        << "gather"
        << std::vector<std::vector<InputSource>>{{filled(DType::Int8, {1000, 10000})},
                                                 {literal("[3, 1]")}}
        << Attrs{} << qint64(30000000) << "";
    QTest::newRow("the inputs together, before the first is made")
        << "concat"
        << std::vector<std::vector<InputSource>>{{filled(DType::Int8, {20000000}),
                                                  filled(DType::Int8, {20000000})}}
        << Attrs{{"axis", Attr(std::int64_t(0))}} << qint64(30000000)
        << "the inputs (input 'values'[0] of shape [20000000] int8, input 'values'[1] of shape "
           "[20000000] int8) needs 40.0 MB (40000000 bytes); ";
    QTest::newRow("fits") << "gather"
                          << std::vector<std::vector<InputSource>>{{filled(DType::Int8,
                                                                           {10000000})},
                                                                   {literal("[3, 1]")}}
                          << Attrs{} << qint64(100000000) << "";
}

void TestEngineClient::evaluationsAreBudgetedWhole()
{
    QFETCH(QString, op);
    QFETCH(std::vector<std::vector<InputSource>>, inputs);
    QFETCH(Attrs, attrs);
    QFETCH(qint64, limit);
    QFETCH(QString, refused);
    EngineClient client;
    Limits limits;
    limits.maxBytes = limit;
    client.setLimits(limits);
    QSignalSpy evaluated(&client, &EngineClient::evaluated);
    Workspace ws;
    ws.op = op.toStdString();
    ws.inputs = inputs;
    ws.attrs = attrs;
    client.evaluate(ws);
    QVERIFY(evaluated.wait(30000));
    const auto eval = evaluated.front().front().value<std::shared_ptr<const Evaluation>>();
    if (refused.isEmpty()) {
        QVERIFY2(eval->ok, qPrintable(eval->message));
        return;
    }
    QVERIFY(!eval->ok);
    QVERIFY2(eval->code == ErrorCode::ResourceExhausted, qPrintable(eval->message));
    QVERIFY2(eval->message.startsWith(refused), qPrintable(eval->message));
    QVERIFY2(eval->message.contains(QStringLiteral(" is available (the byte limit of 30.0 MB")),
             qPrintable(eval->message));
}

namespace {

std::shared_ptr<const Evaluation> evaluated(EngineClient& client, const Workspace& ws)
{
    QSignalSpy spy(&client, &EngineClient::evaluated);
    client.evaluate(ws);
    if (!spy.wait(20000)) return nullptr;
    return spy.front().front().value<std::shared_ptr<const Evaluation>>();
}

} // namespace

// The workbench maps .npy inputs of 1 MiB or more (EngineClient turns it on) and every
// evaluation checks them after its op: a file truncated under the window fails the evaluation,
// naming the file, instead of showing zeros or ending the process with SIGBUS.
void TestEngineClient::npyInputsAreMappedAndChecked()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.npy"));
    const Tensor tensor = makeFilled(DType::Float32, {640, 512}, Fill::Arange, 0, Limits{});
    writeNpyFile(QFile::encodeName(path).toStdString(), tensor);
    EngineClient client;
    Workspace ws = readWorkspaceFile(path, Workspace{}, client.limits());
    QVERIFY(isMappedFile(ws.inputs[0][0].data.raw()));
    ws.attrs = {{"expr", Attr("x[::-1, 1]")}};
    auto eval = evaluated(client, ws);
    QVERIFY(eval);
    QVERIFY2(eval->ok, qPrintable(eval->message));
    QCOMPARE(eval->outputs.front().data<float>()[0], float(639 * 512 + 1));

    QVERIFY(QFile::resize(path, 4096));
    ws.attrs = {{"expr", Attr("x[::-1, 2]")}};
    eval = evaluated(client, ws);
    QVERIFY(eval);
    QVERIFY(!eval->ok);
    QCOMPARE(eval->code, ErrorCode::BadRequest);
    QVERIFY2(eval->message.contains(QStringLiteral("x.npy' was truncated while it was being read")),
             qPrintable(eval->message));
}

namespace {

// How many of the pages under [data, data + bytes) this process maps (/proc/self/pagemap's
// "present" bit), -1 if that cannot be read.
std::int64_t mappedPages(const void* data, std::int64_t bytes)
{
    QFile pagemap(QStringLiteral("/proc/self/pagemap"));
    if (!pagemap.open(QIODevice::ReadOnly)) return -1;
    const std::int64_t page = 4096;
    const std::int64_t first = std::int64_t(reinterpret_cast<std::uintptr_t>(data)) / page;
    const std::int64_t count = (bytes + page - 1) / page;
    if (!pagemap.seek(first * 8)) return -1;
    const QByteArray entries = pagemap.read(count * 8);
    if (entries.size() != count * 8) return -1;
    std::int64_t present = 0;
    for (std::int64_t i = 0; i < count; ++i) {
        quint64 entry = 0;
        std::memcpy(&entry, entries.constData() + i * 8, 8);
        present += (entry >> 63) & 1;
    }
    return present;
}

} // namespace

// A 10^9-element int8 .npy made the window's resident memory 3 GB: its output, the previous
// output kept for the next edit, and the file's pages, all mapped by the op that read them.
// Once the op is done, a mapped input of 64 MiB or more is no longer mapped page by page (its
// pages stay in the page cache for the next edit); a small one is left as it is.
void TestEngineClient::aBigMappedInputLeavesResidentMemoryAfterItsOp()
{
    QTemporaryDir dir;
    EngineClient client;
    for (const std::int64_t rows : {std::int64_t(4096), std::int64_t(256)}) {
        const QString path = dir.filePath(QStringLiteral("x%1.npy").arg(rows));
        const Tensor tensor = makeFilled(DType::Float32, {rows, 4096}, Fill::Arange, 0, Limits{});
        writeNpyFile(QFile::encodeName(path).toStdString(), tensor);
        Workspace ws = readWorkspaceFile(path, Workspace{}, client.limits());
        const Tensor& input = ws.inputs[0][0].data;
        QVERIFY(isMappedFile(input.raw()));
        ws.attrs = {{"expr", Attr("x[::-1, 1:]")}};
        const auto eval = evaluated(client, ws);
        QVERIFY(eval);
        QVERIFY2(eval->ok, qPrintable(eval->message));
        QCOMPARE(eval->outputs.front().data<float>()[0], float((rows - 1) * 4096 + 1));
        const std::int64_t pages = input.size() * 4 / 4096;
        const std::int64_t mapped = mappedPages(input.raw(), input.size() * 4);
        QVERIFY(mapped >= 0);
        if (rows == 4096)
            QVERIFY2(mapped < pages / 100, qPrintable(QString::number(mapped)));
        else
            QCOMPARE(mapped, pages);
    }
}

// The first edits of a new tensor wrote their outputs into fresh memory (its first evaluation
// shares the input's buffer, so nothing was freed for the next output): at 10^7 elements such an
// edit took 2-5x the median. Once the window asks after an evaluation, a buffer for an output of
// its size waits, its pages already in memory.
void TestEngineClient::theNextOutputsBufferIsReady()
{
    EngineClient client;
    Workspace ws;
    ws.inputs = {{filled(DType::Float32, {4096, 1024})}};
    ws.attrs = {{"expr", Attr("x[::-1, 1:]")}};
    releasePooledBuffers();
    stagetrace::enable(true);
    (void)stagetrace::take();
    const auto eval = evaluated(client, ws);
    QVERIFY(eval);
    QVERIFY2(eval->ok, qPrintable(eval->message));
    bool seen = false;
    auto ready = [&seen] {
        for (const stagetrace::Mark& m : stagetrace::take())
            seen = seen || std::strcmp(m.stage, "worker: next output's buffer ready") == 0;
        return seen;
    };
    // Not before the window asks (once it has settled): the result's heat maps come first. A
    // bounded wait in which it would have been ready (it took 10-30 ms).
    QTest::qWait(300);
    QVERIFY(!ready());
    client.prepareNextOutput();
    QTRY_VERIFY_WITH_TIMEOUT(ready(), 20000);
    stagetrace::enable(false);
    const Tensor next = Tensor::empty(DType::Float32, {4096, 1023});
    const std::int64_t bytes = next.size() * 4;
    QCOMPARE(mappedPages(next.raw(), bytes), (bytes + 4095) / 4096);
}

// An edit that comes before the next output's buffer is prepared stops the preparation: it would
// take a worker (and under load a core) from the edit's evaluation, and the buffer it made would
// be kept beside the evaluation's own. Here the pool's threads are held busy so that both jobs
// are queued: the preparation, queued first, must not run once the evaluation is asked for.
void TestEngineClient::anEvaluationStopsThePreparation()
{
    EngineClient client;
    Workspace big;
    big.inputs = {{filled(DType::Float32, {4096, 4096})}};
    big.attrs = {{"expr", Attr("x[...]")}}; // shares the input: a 64 MiB buffer to prepare
    const auto first = evaluated(client, big);
    QVERIFY(first);
    QVERIFY2(first->ok, qPrintable(first->message));
    releasePooledBuffers();
    // Every thread of the pool runs one of these jobs until `release`, each waiting for the others
    // to start: they all start only once every job queued before them has ended.
    const std::shared_ptr<Executor> pool = WorkerPool::shared();
    std::mutex mutex;
    std::condition_variable changed;
    auto occupy = [&](int& started, const bool& release) {
        std::vector<std::shared_ptr<Job>> jobs;
        for (int k = 0; k < pool->threadCount(); ++k)
            jobs.push_back(pool->submit({}, [&](JobContext&) {
                std::unique_lock lock(mutex);
                ++started;
                changed.notify_all();
                changed.wait(lock, [&] { return started == pool->threadCount() && release; });
            }));
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return started == pool->threadCount(); });
        return jobs;
    };
    int held = 0;
    bool goOn = false;
    (void)occupy(held, goOn);
    client.prepareNextOutput();
    Workspace small;
    small.inputs = {{filled(DType::Float32, {4, 6})}};
    small.attrs = {{"expr", Attr("x[::-1]")}};
    QSignalSpy spy(&client, &EngineClient::evaluated);
    client.evaluate(small);
    {
        std::lock_guard lock(mutex);
        goOn = true;
        changed.notify_all();
    }
    QVERIFY(spy.wait(20000));
    int drained = 0;
    const bool always = true;
    for (const auto& job : occupy(drained, always)) // the preparation, had it run, has ended
        job->wait();
    QCOMPARE(releasePooledBuffers(), 0);
}

// Only while no buffer is on its way back: outputs of the evaluation shown before, not shared with
// the new one and of at least half its size together, are freed for the next edit (one more
// buffer would stay resident for nothing).
void TestEngineClient::aBufferIsPreparedOnlyWhenNoneIsFreed()
{
    const Tensor input = Tensor::empty(DType::Float32, {4096, 1024});
    auto evaluation = [&input](Tensor output) {
        Evaluation eval;
        eval.ok = true;
        eval.inputs = {{input}};
        eval.outputs = {std::move(output)};
        return eval;
    };
    const Evaluation first = evaluation(input); // x[...]: the input's own buffer
    const Evaluation edit = evaluation(Tensor::empty(DType::Float32, {4096, 1023}));
    const Evaluation half = evaluation(Tensor::empty(DType::Float32, {2048, 1024}));
    const Evaluation next = evaluation(Tensor::empty(DType::Float32, {4095, 1024}));
    const Evaluation quarter = evaluation(Tensor::empty(DType::Float32, {1024, 1024}));
    const std::int64_t full = 4096 * 1024 * 4;
    QCOMPARE(bufferToPrepare(nullptr, first), full);
    QCOMPARE(bufferToPrepare(&first, edit), full - 4096 * 4); // the input stays
    QCOMPARE(bufferToPrepare(&edit, next), 0);                // edit's output is freed
    QCOMPARE(bufferToPrepare(&edit, half), 0);
    QCOMPARE(bufferToPrepare(&half, next), 0);                  // the pool grows it
    QCOMPARE(bufferToPrepare(&quarter, next), full - 1024 * 4); // too small to take
    Evaluation parts = quarter; // dynamic_partition's outputs: two quarters, one of them grown
    parts.outputs.push_back(Tensor::empty(DType::Float32, {1024, 1024}));
    QCOMPARE(bufferToPrepare(&parts, next), 0);
    QCOMPARE(bufferToPrepare(&first, first), full);
    // Strings: their characters are not in a buffer of the pool.
    QCOMPARE(bufferToPrepare(nullptr, evaluation(Tensor::empty(DType::String, {1 << 20}))), 0);
    // 10^8 float32 (400 MB): its first edits would write fresh memory (0.2-1 s at 10^8).
    QCOMPARE(bufferToPrepare(nullptr, evaluation(Tensor::empty(DType::Float32, {10000, 10000}))),
             std::int64_t(400000000));
    // Over 1 GiB: none.
    QCOMPARE(bufferToPrepare(nullptr, evaluation(Tensor::empty(DType::Int8, {(1 << 30) + 1}))), 0);
}

QTEST_GUILESS_MAIN(TestEngineClient)
#include "tst_engineclient.moc"
