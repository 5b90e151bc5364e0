// SPDX-License-Identifier: GPL-3.0-or-later
// Limits that hold: a whole request is budgeted before its memory is allocated (inputs, plan,
// outputs, string characters, sources, response), errors name the limit that was hit, an
// over-long request line is refused while it is read, and the memory limit is the cgroup's.
#include "core/memory_budget.h"
#include "protocol_test.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <ctime>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <limits>
#include <sstream>
#include <streambuf>
#include <unistd.h>

Q_DECLARE_METATYPE(ss::Shape)

using namespace ss;
using namespace ss::testing;

// Milliseconds of processor time this process used since `started` (every thread): a guard
// against work that grows too fast, which other processes on a loaded machine cannot fail.
static long cpuMs(std::clock_t started)
{
    return long((std::clock() - started) * 1000 / CLOCKS_PER_SEC);
}

namespace {

Limits bytesLimit(std::int64_t bytes)
{
    Limits limits;
    limits.maxBytes = bytes;
    return limits;
}

std::string fillRequest(const std::string& op, const std::string& input, const std::string& dtype,
                        std::int64_t n, const std::string& attrs, const std::string& extra = "")
{
    return R"({"op": ")" + op + R"(", "inputs": {")" + input + R"(": {"dtype": ")" + dtype +
           R"(", "shape": [)" + std::to_string(n) + R"(], "fill": "zeros"}}, "attrs": )" + attrs +
           R"(, "emit": "summary")" + extra + "}";
}

/// A reverse of `n` zeros of `dtype` that answers with every element (emit data).
std::string reverseRequest(const std::string& dtype, std::int64_t n)
{
    return R"({"op": "reverse", "inputs": {"tensor": {"dtype": ")" + dtype + R"(", "shape": [)" +
           std::to_string(n) + R"(], "fill": "zeros"}}, "attrs": {"axis": [0]}})";
}

// An input stream of `zeros` NUL bytes (no newline), then `tail`, made as it is read; it records
// how much had been read when the output first saw a newline.
class GeneratedInput : public std::streambuf
{
public:
    GeneratedInput(std::int64_t zeros, std::string tail) : m_zeros(zeros), m_tail(std::move(tail))
    {
    }
    std::int64_t served() const { return m_served; }

protected:
    int_type underflow() override
    {
        if (m_zeros > 0) {
            const auto n = std::min<std::int64_t>(m_zeros, std::int64_t(sizeof m_chunk));
            std::fill_n(m_chunk, n, '\0');
            m_zeros -= n;
            m_served += n;
            setg(m_chunk, m_chunk, m_chunk + n);
            return traits_type::to_int_type(m_chunk[0]);
        }
        if (m_tailDone || m_tail.empty()) return traits_type::eof();
        m_tailDone = true;
        m_served += std::int64_t(m_tail.size());
        setg(m_tail.data(), m_tail.data(), m_tail.data() + m_tail.size());
        return traits_type::to_int_type(m_tail[0]);
    }

private:
    char m_chunk[1 << 16];
    std::int64_t m_zeros;
    std::string m_tail;
    bool m_tailDone = false;
    std::int64_t m_served = 0;
};

class RecordingOutput : public std::streambuf
{
public:
    explicit RecordingOutput(const GeneratedInput& input) : m_input(input) {}
    std::string text;
    std::int64_t servedAtFirstLine = -1;

protected:
    int_type overflow(int_type c) override
    {
        if (c == traits_type::eof()) return traits_type::not_eof(c);
        text += char(c);
        if (c == '\n' && servedAtFirstLine < 0) servedAtFirstLine = m_input.served();
        return c;
    }

private:
    const GeneratedInput& m_input;
};

void writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

// A process-wide limit far above the memory available (as physical memory is), with
// /proc/meminfo read from `root` (no cgroup there) saying `availableKb` are available, until the
// guard goes.
Limits availableLimits(const QTemporaryDir& root, std::int64_t availableKb)
{
    writeFile(root.filePath("proc/meminfo"),
              "MemTotal:       24000000 kB\nMemFree:          100000 kB\nMemAvailable:   " +
                  QByteArray::number(qint64(availableKb)) + " kB\n");
    setAvailableMemoryRoot(root.path().toStdString());
    Limits limits;
    limits.maxBytes = std::int64_t(1) << 40;
    limits.bytesName = "the physical memory";
    limits.processWide = true;
    return limits;
}

auto realMemoryAtTheEnd()
{
    return qScopeGuard([] { setAvailableMemoryRoot(""); });
}

// JSON pieces of the requests below (moc cannot read raw strings inside a test class).
const std::string kAxis0 = R"({"axis": [0]})";
const std::string kPartition4M =
    R"({"op": "dynamic_partition", "inputs": {"data": {"dtype": "int8", "shape": [4000000], "fill": "zeros"},)"
    R"( "partitions": {"dtype": "int32", "shape": [4000000], "fill": "zeros"}},)"
    R"( "attrs": {"num_partitions": 1}, "emit": "summary"})";
const std::string kGather4M =
    R"({"op": "gather", "inputs": {"params": {"dtype": "int8", "shape": [1], "fill": "zeros"},)"
    R"( "indices": {"dtype": "int32", "shape": [4000000], "fill": "zeros"}}, "emit": "summary"})";
const std::string kWithSources = R"(, "sources": true)";
const std::string kReverseFloat64 =
    R"({"op": "reverse", "inputs": {"tensor": {"dtype": "float64", "shape": [2000000], "fill": "zeros"}}, "attrs": {"axis": [0]}})";
const std::string kTileStringHead = R"({"op": "tile", "inputs": {"input": {"value": [")";
const std::string kTileStringTail = R"("]}}, "attrs": {"multiples": [1000]}, "emit": "summary"})";
const std::string kReverseInt32x30000 =
    R"({"op": "reverse", "inputs": {"tensor": {"dtype": "int32", "shape": [30000], "fill": "zeros"}}, "attrs": {"axis": [0]}})";
const std::string kConcatTwo40M =
    R"({"op": "concat", "inputs": {"values": [{"dtype": "int8", "shape": [40000000], "fill": "zeros"},)"
    R"( {"dtype": "int8", "shape": [40000000], "fill": "ones"}]}, "attrs": {"axis": 0}})";
// 100 bytes that ask for an output of 300 million int32 (1.2 GB): the largest index names the
// output's row count.
const std::string kStitch300M =
    R"({"op":"dynamic_stitch","inputs":{"indices":[{"value":[299999999]}],"data":[{"value":[1]}]},"emit":"summary"})";
const std::string kReverse16G =
    R"({"op": "reverse", "inputs": {"tensor": {"dtype": "float64", "shape": [2000000, 1000], "fill": "zeros"}}, "attrs": {"axis": [0]}})";
const std::string kReverseInt32x1000 =
    R"({"op": "reverse", "inputs": {"tensor": {"dtype": "int32", "shape": [1000], "fill": "zeros"}}, "attrs": {"axis": [0]}})";

} // namespace

class TestLimits : public QObject
{
    Q_OBJECT

private slots:
    // reverse of a 40 MB tensor takes 80 MB (input and output); each alone fits 64 MB, which is
    // all the old per-tensor check looked at.
    void aWholeRequestIsBudgeted()
    {
        const Limits limits = bytesLimit(64 << 20);
        const Json refused =
            respond(fillRequest("reverse", "tensor", "int8", 40000000, kAxis0), limits);
        QCOMPARE(errorCode(refused), "resource_exhausted");
        QVERIFY2(
            errorMessage(refused).starts_with("output 0 of shape [40000000] int8 needs 40.0 MB "
                                              "(40000000 bytes); 27.1 MB is available (the "
                                              "byte limit of 67.1 MB; the rest of this "
                                              "request takes 40.0 MB)"),
            errorMessage(refused).c_str());
        const Json fits =
            respond(fillRequest("reverse", "tensor", "int8", 20000000, kAxis0), limits);
        QCOMPARE(errorCode(fits), "");
    }

    // The plan's row lists count: partitioning 4M rows keeps a 16 MB list of row numbers (int32,
    // not the 32 MB of packed int64 sources it kept before) beside the 16 MB of partition numbers
    // and the 4 MB of data. gather reads its 16 MB of indices in place and needs no list.
    void thePlanIsBudgeted()
    {
        const std::string request = kPartition4M;
        const Json refused = respond(request, bytesLimit(28 << 20));
        QCOMPARE(errorCode(refused), "resource_exhausted");
        QVERIFY2(errorMessage(refused).starts_with("the row list of shape [4000000] int32 needs "
                                                   "16.0 MB (16000000 bytes)"),
                 errorMessage(refused).c_str());
        QCOMPARE(errorCode(respond(request, bytesLimit(40 << 20))), "");
        QCOMPARE(errorCode(respond(kGather4M, bytesLimit(40 << 20))), "");
    }

    // Index arrays broadcast: three of 200 values each, (200, 1, 1), (1, 200, 1) and (1, 1, 200),
    // read 8,000,000 elements of x, a 32 MB int32 result from 5 KB of text. Each framework's plan
    // keeps an offset per broadcast position and a source per element (8 bytes each): 160 MB
    // of the NumPy reading, and again for PyTorch and JAX in `compare`, were made without being
    // charged (an index of 10^9 positions took the machine's memory under --max-bytes 6 GB).
    void broadcastIndexArraysAreBudgeted_data()
    {
        QTest::addColumn<QString>("request");
        auto arrays = [](const char* open, const char* close) {
            QString list;
            for (int i = 0; i < 200; ++i)
                list += QLatin1String(i ? ", " : "") + QLatin1String(open) + '0' +
                        QLatin1String(close);
            return list;
        };
        const QString expr = "x[[" + arrays("[[", "]]") + "], [[" + arrays("[", "]") + "]], [[[" +
                             arrays("", "") + "]]]]";
        const QString rest = ", \"inputs\": {\"input\": {\"dtype\": \"int32\", \"shape\": [2, 2, "
                             "2], \"fill\": \"arange\"}}, \"attrs\": {\"expr\": \"" +
                             expr + "\"}, \"emit\": \"summary\"}";
        QTest::newRow("numpy") << "{\"op\": \"getitem\", \"framework\": \"numpy\"" + rest;
        QTest::newRow("compare") << "{\"op\": \"compare\"" + rest;
    }

    void broadcastIndexArraysAreBudgeted()
    {
        QFETCH(QString, request);
        const Json refused = respond(request.toStdString(), bytesLimit(100 << 20));
        QCOMPARE(errorCode(refused), "resource_exhausted");
        QVERIFY2(errorMessage(refused).starts_with("the row list of shape [200,200,200] int64 "
                                                   "needs 64.0 MB (64000000 bytes)"),
                 errorMessage(refused).c_str());
        QCOMPARE(errorCode(respond(request.toStdString(), bytesLimit(400 << 20))), "");
    }

    // Sources take 8 bytes an element, and their JSON text far more.
    void sourcesAndTheResponseAreBudgeted()
    {
        const Limits limits = bytesLimit(64 << 20);
        const Json sources = respond(
            fillRequest("reverse", "tensor", "int8", 5000000, kAxis0, kWithSources), limits);
        QCOMPARE(errorCode(sources), "resource_exhausted");
        QVERIFY2(errorMessage(sources).starts_with("the response would take up to "),
                 errorMessage(sources).c_str());
        const Json text = respond(kReverseFloat64, limits);
        QVERIFY2(errorMessage(text).starts_with("the response text needs "),
                 errorMessage(text).c_str());
    }

    // Every dtype's elements count in the response text: under a limit that holds the tensors
    // and one byte per element, a reverse of 2,000,000 elements is refused for its text (each
    // element writes at least "0,"). The seven dtypes added later counted 0 characters and
    // passed, whatever their text came to.
    void everyDtypesResponseTextIsBudgeted_data()
    {
        QTest::addColumn<QString>("dtype");
        for (const char* name :
             {"bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
              "float16", "bfloat16", "float32", "float64", "complex64", "complex128"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void everyDtypesResponseTextIsBudgeted()
    {
        QFETCH(QString, dtype);
        const std::int64_t n = 2000000;
        const std::int64_t size = dtypeSize(*dtypeFromName(dtype.toStdString()));
        const Json answer =
            respond(reverseRequest(dtype.toStdString(), n), bytesLimit(2 * n * size + n));
        QCOMPARE(errorCode(answer), "resource_exhausted");
        QVERIFY2(errorMessage(answer).starts_with("the response text needs ") ||
                     errorMessage(answer).starts_with("the response would take up to "),
                 errorMessage(answer).c_str());
    }

    // A string's characters count: one 1 MB string tiled 1,000 times is 1 GB, refused before a
    // single copy is made (it used to reach 1 GB of memory under --max-elements 1000).
    void stringCharactersAreCounted()
    {
        Limits limits = bytesLimit(512 << 20);
        limits.maxElements = 1000;
        const std::string request = kTileStringHead + std::string(1000000, 'a') + kTileStringTail;
        const std::clock_t started = std::clock();
        const Json refused = respond(request, limits);
        QCOMPARE(errorCode(refused), "resource_exhausted");
        QVERIFY2(errorMessage(refused).starts_with(
                     "the characters of output 0 (1000 strings of up to 1000000 bytes) needs "),
                 errorMessage(refused).c_str());
        QVERIFY2(cpuMs(started) < 2000, qPrintable(QString::number(cpuMs(started))));
        // The same request with 100 copies (100 MB) fits.
        std::string fewer = request;
        fewer.replace(fewer.find("[1000]"), 6, "[100]");
        QCOMPARE(errorCode(respond(fewer, limits)), "");
    }

    // An input whose bytes do not fit in 64 bits is refused as the tensor itself would be, not
    // as a saturated size: the workbench said "needs 9.2 EB (9223372036854775807 bytes)" of a
    // model file's input of shape [2^40, 2^40, 2^40].
    void inputsPastInt64AreNamedSo_data()
    {
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<QString>("message");
        const std::int64_t big = std::int64_t(1) << 40;
        QTest::newRow("elements") << Shape{big, big, big}
                                  << "input 'data' of shape [1099511627776,1099511627776,"
                                     "1099511627776] is too big: its sizes multiply past 2^63 - 1 "
                                     "elements";
        QTest::newRow("bytes") << Shape{std::int64_t(1) << 62}
                               << "input 'data' of shape [4611686018427387904] float32 needs "
                                  "more than 2^63 bytes";
    }

    void inputsPastInt64AreNamedSo()
    {
        QFETCH(Shape, shape);
        QFETCH(QString, message);
        TensorSpec spec;
        spec.kind = TensorSpec::Kind::Fill;
        spec.dtype = DType::Float32;
        spec.shape = shape;
        Limits limits = Limits::machineDefault().forRequest();
        limits.maxElements = std::numeric_limits<std::int64_t>::max();
        try {
            requireGeneratedInputs(*findOp("onnx_slice"), {{spec}}, limits);
            QFAIL("not refused");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::ResourceExhausted);
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    // Every generated input is sized before the first is made: two 40 MB inputs under 64 MB
    // are refused together (the first used to be made, 40 MB, before the second was refused).
    void inputsAreSizedTogetherFirst()
    {
        const Json refused = respond(kConcatTwo40M, bytesLimit(64 << 20));
        QCOMPARE(errorCode(refused), "resource_exhausted");
        QVERIFY2(errorMessage(refused).starts_with(
                     "the inputs (input 'values'[0] of shape [40000000] int8, input 'values'[1] "
                     "of shape [40000000] int8) needs 80.0 MB (80000000 bytes); "),
                 errorMessage(refused).c_str());
    }

    // The message says what is too big, its size, the room left and where that comes from.
    void refusalsSayTheSizeAndTheRoom_data()
    {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("held");
        QTest::addColumn<bool>("freeMemory");
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("available memory")
            << qint64(11500000000) << qint64(300000000) << true << "MemAvailable"
            << qint64(16000000000)
            << "the input of shape [2000000,1000] float64 needs 16.0 GB (16000000000 bytes); "
               "11.2 GB is available (MemAvailable)";
        QTest::newRow("a limit on the process")
            << qint64(400000000) << qint64(150000000) << false << "the cgroup memory limit (x)"
            << qint64(1999999999)
            << "the input of shape [2000000,1000] float64 needs 2.0 GB (1999999999 bytes); "
               "250.0 MB is available (the cgroup memory limit (x) of 400.0 MB, of which the "
               "process already holds 150.0 MB)";
        QTest::newRow("small sizes")
            << qint64(1000) << qint64(0) << false << "the byte limit" << qint64(1001)
            << "the input of shape [2000000,1000] float64 needs 1.0 kB "
               "(1001 bytes); 1.0 kB is available (the byte limit of "
               "1.0 kB)";
    }

    void refusalsSayTheSizeAndTheRoom()
    {
        QFETCH(qint64, limit);
        QFETCH(qint64, held);
        QFETCH(bool, freeMemory);
        QFETCH(QString, name);
        QFETCH(qint64, bytes);
        QFETCH(QString, message);
        MemoryBudget budget(limit, name.toStdString(), held, freeMemory);
        try {
            budget.charge(bytes, "the input of shape [2000000,1000] float64");
            QFAIL("not refused");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::ResourceExhausted);
            QCOMPARE(QString::fromStdString(e.what()), message);
        }
        QCOMPARE(budget.charged(), held); // nothing was added
    }

    void byteSizesForPeople_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << qint64(0) << "0 bytes";
        QTest::newRow("1") << qint64(1) << "1 byte";
        QTest::newRow("999") << qint64(999) << "999 bytes";
        QTest::newRow("1000") << qint64(1000) << "1.0 kB";
        QTest::newRow("999949") << qint64(999949) << "999.9 kB";
        QTest::newRow("999950 rounds up a unit") << qint64(999950) << "1.0 MB";
        QTest::newRow("16e9") << qint64(16000000000) << "16.0 GB";
        QTest::newRow("int64 max") << qint64(std::numeric_limits<qint64>::max()) << "9.2 EB";
    }

    void byteSizesForPeople()
    {
        QFETCH(qint64, bytes);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(byteSizeText(bytes)), text);
    }

    // The memory available: MemAvailable, or what a cgroup's limit leaves, the smaller.
    void readsTheAvailableMemory_data()
    {
        QTest::addColumn<QString>("cgroup");
        QTest::addColumn<QString>("mountinfo");
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("name");
        const QString meminfo = "proc/meminfo=MemTotal:       24000000 kB\n"
                                "MemFree:          500000 kB\nMemAvailable:   11000000 kB\n"
                                "Buffers:           20000 kB\n";
        const QString v2 = "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
        QTest::newRow("MemAvailable")
            << ""
            << "" << QStringList{meminfo} << qint64(11264000000) << "MemAvailable";
        QTest::newRow("no MemAvailable line (kernels before 3.14)")
            << ""
            << "" << QStringList{"proc/meminfo=MemTotal: 24000000 kB\nMemFree: 5 kB\n"} << qint64(1)
            << "no known limit";
        QTest::newRow("v2: the limit minus the usage, inactive page cache given back")
            << "0::/app\n"
            << v2
            << QStringList{meminfo, "sys/fs/cgroup/app/memory.max=400000000\n",
                           "sys/fs/cgroup/app/memory.current=300000000\n",
                           "sys/fs/cgroup/app/memory.stat=anon 250000000\nfile 50000000\n"
                           "inactive_file 40000000\nactive_file 10000000\n"}
            << qint64(140000000)
            << "what the cgroup memory limit leaves (/sys/fs/cgroup/app/memory.max minus the "
               "cgroup's usage)";
        QTest::newRow("v2: an ancestor leaves less")
            << "0::/a/b\n"
            << v2
            << QStringList{meminfo, "sys/fs/cgroup/a/b/memory.max=max\n",
                           "sys/fs/cgroup/a/b/memory.current=100\n",
                           "sys/fs/cgroup/a/memory.max=1000000000\n",
                           "sys/fs/cgroup/a/memory.current=990000000\n"}
            << qint64(10000000)
            << "what the cgroup memory limit leaves (/sys/fs/cgroup/a/memory.max minus the "
               "cgroup's usage)";
        QTest::newRow("v2: over its limit leaves nothing")
            << "0::/app\n"
            << v2
            << QStringList{meminfo, "sys/fs/cgroup/app/memory.max=1000\n",
                           "sys/fs/cgroup/app/memory.current=5000\n"}
            << qint64(0)
            << "what the cgroup memory limit leaves (/sys/fs/cgroup/app/memory.max minus the "
               "cgroup's usage)";
        QTest::newRow("v1: limit_in_bytes minus usage_in_bytes")
            << "4:memory:/docker/abc\n"
            << "40 30 0:35 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
            << QStringList{meminfo,
                           "sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes=536870912\n",
                           "sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes=136870912\n",
                           "sys/fs/cgroup/memory/docker/abc/memory.stat=cache 10\n"
                           "total_inactive_file 1000000\n"}
            << qint64(401000000)
            << "what the cgroup memory limit leaves (/sys/fs/cgroup/memory/docker/abc/"
               "memory.limit_in_bytes minus the cgroup's usage)";
        QTest::newRow("MemAvailable smaller than the cgroup's room")
            << "0::/app\n"
            << v2
            << QStringList{meminfo, "sys/fs/cgroup/app/memory.max=100000000000\n",
                           "sys/fs/cgroup/app/memory.current=1000\n"}
            << qint64(11264000000) << "MemAvailable";
        QTest::newRow("nothing readable") << ""
                                          << "" << QStringList{} << qint64(-1) << "no known limit";
    }

    void readsTheAvailableMemory()
    {
        QFETCH(QString, cgroup);
        QFETCH(QString, mountinfo);
        QFETCH(QStringList, files);
        QFETCH(qint64, bytes);
        QFETCH(QString, name);
        QTemporaryDir root;
        QVERIFY(root.isValid());
        if (!cgroup.isEmpty()) writeFile(root.filePath("proc/self/cgroup"), cgroup.toUtf8());
        if (!mountinfo.isEmpty())
            writeFile(root.filePath("proc/self/mountinfo"), mountinfo.toUtf8());
        for (const QString& f : files)
            writeFile(root.filePath(f.section('=', 0, 0)), f.section('=', 1).toUtf8());
        const MemoryLimit available = availableMemory(root.path().toStdString());
        QCOMPARE(QString::fromStdString(available.name), name);
        if (name == "no known limit")
            QCOMPARE(available.bytes, std::int64_t(1) << 62);
        else
            QCOMPARE(available.bytes, bytes);
    }

    // A request is budgeted by what is available now, not by physical memory: 16 GB of input
    // on a machine with 200 MB available is refused before it is made, at once.
    void theMemoryAvailableBindsARequest()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const auto guard = realMemoryAtTheEnd();
        const Limits limits = availableLimits(root, 200000);
        QElapsedTimer timer;
        timer.start();
        const Json refused = respond(kReverse16G, limits);
        QCOMPARE(errorCode(refused), "resource_exhausted");
        QVERIFY2(errorMessage(refused).starts_with("the input 'tensor' of shape [2000000,1000] "
                                                   "float64 needs 16.0 GB (16000000000 bytes); "),
                 errorMessage(refused).c_str());
        QVERIFY2(errorMessage(refused).find(" is available (MemAvailable") != std::string::npos,
                 errorMessage(refused).c_str());
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
        // What fits in it runs.
        QCOMPARE(errorCode(respond(kReverseInt32x1000, limits)), "");
    }

    // Freed memory the process keeps (the workbench never trims its heap on free) is given back
    // to a request that needs it: 200 MB freed into the heap, 50 MB available, and a request of
    // 150 MB fits once the heap is trimmed.
    void freedHeapMemoryIsReclaimed()
    {
#if !defined(__GLIBC__) || defined(SLICESCOPE_ASAN)
        QSKIP("needs glibc's heap (and no sanitizer's allocator)");
#else
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const auto guard = realMemoryAtTheEnd();
        const Limits limits = availableLimits(root, 50000);
        // As the workbench's keepFreedMemoryForReuse(): big blocks from the heap, never trimmed.
        mallopt(M_MMAP_THRESHOLD, 1 << 30);
        mallopt(M_TRIM_THRESHOLD, -1);
        const auto restore = qScopeGuard([] {
            mallopt(M_MMAP_THRESHOLD, 128 * 1024);
            mallopt(M_TRIM_THRESHOLD, 128 * 1024);
        });
        {
            std::vector<char> block(200000000, 1);
            QVERIFY(block.back() == 1);
        }
        QCOMPARE(
            errorCode(respond(fillRequest("reverse", "tensor", "int8", 75000000, kAxis0), limits)),
            "");
#endif
    }

    // A 100-byte dynamic_stitch request whose index asks for a 1.2 GB output: refused by what
    // is available before anything is allocated (it was budgeted by physical memory, and a
    // 91-byte one with a larger index allocated 8.2 GB).
    void aSmallStitchRequestCannotTakeTheMachine()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const auto guard = realMemoryAtTheEnd();
        const Limits limits = availableLimits(root, 200000);
        const std::int64_t before = residentBytes();
        const Json refused = respond(kStitch300M, limits);
        QCOMPARE(errorCode(refused), "resource_exhausted");
        QVERIFY2(errorMessage(refused).find("needs 1.2 GB (1200000000 bytes)") != std::string::npos,
                 errorMessage(refused).c_str());
        QVERIFY2(errorMessage(refused).find(" is available (MemAvailable") != std::string::npos,
                 errorMessage(refused).c_str());
        QVERIFY2(residentBytes() - before < 100000000,
                 qPrintable(QString::number(residentBytes() - before)));
        // --max-bytes is the user's number: the memory available does not apply then.
        const Limits overridden = withMaxBytes(limits, 1 << 30);
        QCOMPARE(overridden.bytesName, "the --max-bytes limit");
        QVERIFY2(errorMessage(respond(kStitch300M, overridden)).find("the --max-bytes limit") !=
                     std::string::npos,
                 errorMessage(respond(kStitch300M, overridden)).c_str());
    }

    // Each message names its limit: bytes are not elements.
    void errorsNameTheLimit()
    {
        Limits limits = bytesLimit(100000);
        const Json bytes = respond(kReverseInt32x30000, limits);
        QCOMPARE(errorMessage(bytes), "input 'tensor': the tensor of shape [30000] int32 needs "
                                      "120.0 kB (120000 bytes), over the byte limit of 100.0 kB");
        limits = bytesLimit(1 << 30);
        limits.maxElements = 100;
        const Json elements = respond(kReverseInt32x1000, limits);
        QCOMPARE(errorMessage(elements), "input 'tensor': the tensor of shape [1000] has 1000 "
                                         "elements, over the limit of 100 elements");
        const Json line = respond(std::string(20000, ' ') + "{}", bytesLimit(1000000));
        QVERIFY2(errorMessage(line).starts_with("reading the request line of 20002 bytes (up to 80 "
                                                "bytes of memory per byte) needs 1.6 MB "
                                                "(1600160 bytes)"),
                 errorMessage(line).c_str());
    }

    // A line longer than the limit is answered as soon as that much of it is read, its rest
    // skipped unread and unstored, and the next line is answered (getline read it whole first:
    // `head -c 3G /dev/zero | slicescope-cli run` ran out of memory).
    void overLongLinesAreRefusedWhileRead()
    {
        const Limits limits = bytesLimit(80 << 16); // lines up to 64 KiB
        RequestHandler handler(testExecutor(), limits);
        QCOMPARE(handler.maxLineBytes(), 1 << 16);
        const std::int64_t zeros = std::int64_t(256) << 20;
        GeneratedInput input(zeros,
                             "\n" + fillRequest("reverse", "tensor", "int8", 4, kAxis0) + "\n");
        RecordingOutput output(input);
        std::istream in(&input);
        std::ostream out(&output);
        QCOMPARE(runJsonLines(in, out, handler), 0);
        const QStringList lines =
            QString::fromStdString(output.text).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        const Json first = parseJson(lines[0].toStdString());
        QCOMPARE(errorCode(first), "resource_exhausted");
        QVERIFY2(errorMessage(first).starts_with("the request line is longer than 65536 bytes"),
                 errorMessage(first).c_str());
        QCOMPARE(errorCode(parseJson(lines[1].toStdString())), "");
        // Answered after about 64 KiB of the 256 MiB line, not at its end.
        QVERIFY2(output.servedAtFirstLine < std::int64_t(1) << 20,
                 qPrintable(QString::number(output.servedAtFirstLine)));
    }

    void readsTheCgroupLimit_data()
    {
        QTest::addColumn<QString>("cgroup");
        QTest::addColumn<QString>("mountinfo");
        QTest::addColumn<QStringList>("files"); // path=content
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("name");
        const QString v2Mount = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n";
        QTest::newRow("v2, the parent's limit is smaller")
            << "0::/user.slice/app.scope\n"
            << v2Mount
            << QStringList{"sys/fs/cgroup/user.slice/app.scope/memory.max=max\n",
                           "sys/fs/cgroup/user.slice/memory.max=2147483648\n",
                           "sys/fs/cgroup/memory.max=max\n"}
            << qint64(2147483648)
            << "the cgroup memory limit (/sys/fs/cgroup/user.slice/memory.max)";
        QTest::newRow("v2, unlimited") << "0::/a\n"
                                       << v2Mount << QStringList{"sys/fs/cgroup/a/memory.max=max\n"}
                                       << qint64(-1) << "the physical memory";
        QTest::newRow("v1 memory controller")
            << "5:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/\n"
            << "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
               "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
               "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
            << QStringList{"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes=536870912\n",
                           "sys/fs/cgroup/memory/docker/"
                           "memory.limit_in_bytes=9223372036854771712\n"}
            << qint64(536870912)
            << "the cgroup memory limit (/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes)";
        QTest::newRow("v2 namespace: the mount shows the process's own cgroup")
            << "0::/\n"
            << "30 23 0:26 /kubepods/pod1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
            << QStringList{"sys/fs/cgroup/memory.max=1073741824\n"} << qint64(1073741824)
            << "the cgroup memory limit (/sys/fs/cgroup/memory.max)";
        QTest::newRow("no cgroup files")
            << ""
            << "" << QStringList{} << qint64(-1) << "the physical memory";
    }

    void readsTheCgroupLimit()
    {
        QFETCH(QString, cgroup);
        QFETCH(QString, mountinfo);
        QFETCH(QStringList, files);
        QFETCH(qint64, bytes);
        QFETCH(QString, name);
        QTemporaryDir root;
        QVERIFY(root.isValid());
        writeFile(root.filePath("proc/self/cgroup"), cgroup.toUtf8());
        writeFile(root.filePath("proc/self/mountinfo"), mountinfo.toUtf8());
        for (const QString& f : files)
            writeFile(root.filePath(f.section('=', 0, 0)), f.section('=', 1).toUtf8());
        const MemoryLimit limit = machineMemoryLimit(root.path().toStdString());
        const MemoryLimit physical = machineMemoryLimit("/nonexistent");
        QCOMPARE(physical.name, "the physical memory");
        QCOMPARE(limit.bytes,
                 bytes < 0 ? physical.bytes : std::min<std::int64_t>(bytes, physical.bytes));
        QCOMPARE(QString::fromStdString(limit.name), name);
    }

    // The real thing: slicescope-cli in a 400 MB memory cgroup. A reverse of 300 MB (600 MB in
    // all) was accepted and the kernel killed the process (exit 137), leaving the next requests
    // unanswered; now it is refused and the next lines are answered.
    void answersInsideAMemoryCgroup()
    {
#if defined(SLICESCOPE_ASAN)
        QSKIP("ASan's shadow memory and quarantine are outside the engine's budget");
#endif
        // v1 (memory controller hierarchy) or v2, whichever this machine mounts at the usual place.
        QString dir, limitFile;
        for (const auto& [base, file] :
             {std::pair{"/sys/fs/cgroup/memory", "memory.limit_in_bytes"},
              {"/sys/fs/cgroup", "memory.max"}}) {
            const QString candidate = QString(base) + "/slicescope-test-" +
                                      QString::number(QCoreApplication::applicationPid());
            if (QFile::exists(QString(base) + "/cgroup.procs") && QDir().mkdir(candidate)) {
                if (QFile::exists(candidate + "/" + file)) {
                    dir = candidate;
                    limitFile = candidate + "/" + file;
                    break;
                }
                QDir().rmdir(candidate);
            }
        }
        if (dir.isEmpty())
            QSKIP("cannot create a memory cgroup here (needs root and a writable cgroup "
                  "hierarchy with the memory controller)");
        auto cleanup = qScopeGuard([&] { QDir().rmdir(dir); });
        {
            QFile limit(limitFile);
            if (!limit.open(QIODevice::WriteOnly) || limit.write("400000000") < 0 || !limit.flush())
                QSKIP("cannot set the cgroup's memory limit");
        }
        const QByteArray procs = QFile::encodeName(dir + "/cgroup.procs");
        QProcess cli;
        cli.setChildProcessModifier([procs] {
            // In the child, before exec: join the cgroup.
            const int fd = ::open(procs.constData(), O_WRONLY);
            char pid[32];
            const int n = std::snprintf(pid, sizeof pid, "%d", int(::getpid()));
            if (fd < 0 || ::write(fd, pid, std::size_t(n)) != n) ::_exit(77);
            ::close(fd);
        });
        cli.start(SLICESCOPE_CLI_PATH, {"run"});
        QVERIFY(cli.waitForStarted());
        const std::string big = fillRequest("reverse", "tensor", "int8", 300000000, kAxis0);
        const std::string fits = fillRequest("reverse", "tensor", "int8", 100000000, kAxis0);
        const std::string small = fillRequest("reverse", "tensor", "int8", 3, kAxis0);
        cli.write((big + "\n" + fits + "\n" + small + "\n").c_str());
        cli.closeWriteChannel();
        QVERIFY(cli.waitForFinished(60000));
        if (cli.exitCode() == 77) QSKIP("cannot move a process into the cgroup");
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 0);
        const QList<QByteArray> lines = cli.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        const Json first = parseJson(lines[0].toStdString());
        QCOMPARE(errorCode(first), "resource_exhausted");
        QVERIFY2(errorMessage(first).find("the cgroup memory limit") != std::string::npos &&
                     errorMessage(first).find(" is available (") != std::string::npos,
                 errorMessage(first).c_str());
        QVERIFY2(errorCode(parseJson(lines[1].toStdString())).empty(), lines[1].constData());
        QCOMPARE(errorCode(parseJson(lines[2].toStdString())), "");
    }
};

QTEST_APPLESS_MAIN(TestLimits)
#include "tst_limits.moc"
