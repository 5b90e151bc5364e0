// SPDX-License-Identifier: GPL-3.0-or-later
// .npy inputs mapped instead of copied (setNpyMapping, as slicescope-cli run reads them): mapped
// only where the file's bytes are the tensor's, read exactly as a copy would be, never a crash
// when the file is truncated under the process but a clear error for the request, and not
// counted as memory the process allocated.
#include "core/error.h"
#include "core/mapped_file.h"
#include "core/memory_budget.h"
#include "npy_testing.h"
#include "protocol/json.h"
#include "protocol/npy.h"
#include "protocol/request.h"
#include "protocol_test.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

Q_DECLARE_METATYPE(ss::Shape)

using namespace ss;
using namespace ss::testing;

namespace {

const Limits kLimits = Limits::machineDefault();

// A version 1.0 .npy file whose data starts at `dataOffset` (a multiple of 64 in every file
// NumPy writes), then `data`.
QByteArray npyFile(const std::string& descr, bool fortran, const std::string& shape,
                   const QByteArray& data, int dataOffset)
{
    return npyHeader(QByteArray::fromStdString(descr), QByteArray::fromStdString(shape), fortran,
                     dataOffset) +
           data;
}

// `count` elements of `size` bytes with distinct patterns (bytes i, i >> 8, ... of element i).
QByteArray elementBytes(std::int64_t count, int size)
{
    QByteArray data(qsizetype(count * size), '\0');
    for (std::int64_t i = 0; i < count; ++i)
        for (int b = 0; b < size; ++b)
            data[qsizetype(i * size + b)] = char((i >> (8 * b)) + b);
    return data;
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

// Sums every byte of the tensor: each page of a mapped one is read.
std::uint64_t readEveryByte(const Tensor& t)
{
    const auto* p = static_cast<const volatile unsigned char*>(t.raw());
    std::uint64_t sum = 0;
    const std::int64_t bytes = t.size() * dtypeSize(t.dtype());
    for (std::int64_t k = 0; k < bytes; ++k)
        sum += p[k];
    return sum;
}

long minorFaults()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

// read() with .npy files mapped (as slicescope-cli run reads them) or copied; copied after.
template <typename Read>
auto withNpyMapping(bool mapped, Read read)
{
    setNpyMapping(mapped);
    try {
        auto result = read();
        setNpyMapping(false);
        return result;
    } catch (...) {
        setNpyMapping(false);
        throw;
    }
}

Tensor readMapped(const std::string& path)
{
    return withNpyMapping(true, [&] { return readNpyFile(path, kLimits); });
}

// A request of `op` on the .npy file at `path` as its input `slot`, with attributes `attrs` (a
// JSON object) and `extra` JSON members. A `slot` ending in "[]" is a list input (concat's
// values) of that one file.
Json fileRequest(const QString& path, const std::string& op, const std::string& slot,
                 const std::string& attrs, const std::string& extra = "")
{
    const bool list = slot.ends_with("[]");
    const std::string file = "{\"npy\": \"" + path.toStdString() + "\"}";
    return parseJson("{\"op\": \"" + op + "\", \"inputs\": {\"" +
                     (list ? slot.substr(0, slot.size() - 2) : slot) + "\": " +
                     (list ? "[" + file + "]" : file) + "}, \"attrs\": " + attrs + extra + "}");
}

// A getitem request of `expr` on the .npy file at `path`, with `extra` JSON members.
Json getitemRequest(const QString& path, const std::string& expr, const std::string& extra = "")
{
    return fileRequest(path, "getitem", "input", "{\"expr\": \"" + expr + "\"}", extra);
}

// The request `json`, its .npy inputs mapped (as slicescope-cli run reads them) or copied.
Request readRequest(const Json& json, const Limits& limits, bool mapped = true)
{
    return withNpyMapping(mapped, [&] { return requestFromJson(json, limits); });
}

// Whether the kernel reads the page at `address` without readahead (madvise(MADV_RANDOM): the
// flag "rr" of its mapping in /proc/self/smaps).
bool readsScattered(const void* address)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly | QIODevice::Text)) qFatal("no /proc/self/smaps");
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    bool inside = false;
    for (const QByteArray& line : smaps.readAll().split('\n')) {
        const qsizetype dash = line.indexOf('-');
        const qsizetype space = line.indexOf(' ');
        bool lowOk = false, highOk = false;
        if (dash > 0 && space > dash) {
            const auto low = line.left(dash).toULongLong(&lowOk, 16);
            const auto high = line.mid(dash + 1, space - dash - 1).toULongLong(&highOk, 16);
            if (lowOk && highOk) {
                inside = at >= low && at < high;
                continue;
            }
        }
        if (inside && line.startsWith("VmFlags:")) return line.split(' ').contains("rr");
    }
    qFatal("no mapping holds the address");
}

} // namespace

class TestMappedNpy : public QObject
{
    Q_OBJECT

private slots:
    void mapsWhereTheLayoutAllows_data();
    void mapsWhereTheLayoutAllows();
    void aTruncatedFileIsAnErrorNotACrash();
    void aFileChangedInPlaceIsAnError();
    void aRequestOnATruncatedInputFails();
    void mappedInputsAreNotAllocatedMemory();
    void aRepeatedReadReusesTheMapping();
    void aChangedFileIsMappedAfresh_data();
    void aChangedFileIsMappedAfresh();
    void aFileBiggerThanTheLimitsIsSlicedWhereItLies_data();
    void aFileBiggerThanTheLimitsIsSlicedWhereItLies();
    void aContiguousBlockSharesTheFilesPages_data();
    void aContiguousBlockSharesTheFilesPages();
    void aSharedBlockOfATruncatedFileIsNotSaved();
    void aSavedFileLeavesNoPagesResident();
    void aViewOfAFileIsNotHeldToTheLimits_data();
    void aViewOfAFileIsNotHeldToTheLimits();
    void onlyTheWholeMappedRangeIsTheFile();
    void aFileIsReadInOrderAgainWhenItsLastSamplerEnds();
    void aStridedViewOfAColdFileReadsAboutItsPages_data();
    void aStridedViewOfAColdFileReadsAboutItsPages();
};

void TestMappedNpy::mapsWhereTheLayoutAllows_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<bool>("mapped");
    const std::int64_t n = 1 << 18; // 1 MiB of float32
    QTest::newRow("float32, C order, 1 MiB")
        << npyFile("<f4", false, "(512, 512)", elementBytes(n, 4), 128) << true << true;
    QTest::newRow("int16, rank 1 in Fortran order (the same bytes)")
        << npyFile("<i2", true, "(" + std::to_string(n * 2) + ",)", elementBytes(n * 2, 2), 128)
        << true << true;
    QTest::newRow("uint8, header of a later version's length")
        << npyFile("|u1", false, "(1024, 1024)", elementBytes(n * 4, 1), 4096) << true << true;
    QTest::newRow("mapping not enabled")
        << npyFile("<f4", false, "(512, 512)", elementBytes(n, 4), 128) << false << false;
    QTest::newRow("under 1 MiB: read")
        << npyFile("<f4", false, "(1000,)", elementBytes(1000, 4), 128) << true << false;
    QTest::newRow("big-endian: swapped on reading")
        << npyFile(">f4", false, "(512, 512)", elementBytes(n, 4), 128) << true << false;
    QTest::newRow("bool: normalised to 0 and 1 on reading")
        << npyFile("|b1", false, "(2048, 1024)", elementBytes(n * 8, 1), 128) << true << false;
    QTest::newRow("Fortran order, rank 2: transposed on reading")
        << npyFile("<f4", true, "(512, 512)", elementBytes(n, 4), 128) << true << false;
    QTest::newRow("data not at a multiple of 64 bytes")
        << npyFile("<f4", false, "(512, 512)", elementBytes(n, 4), 160) << true << false;
}

void TestMappedNpy::mapsWhereTheLayoutAllows()
{
    QFETCH(QByteArray, file);
    QFETCH(bool, enabled);
    QFETCH(bool, mapped);
    QTemporaryDir dir;
    const std::string path = dir.filePath("a.npy").toStdString();
    writeFile(QString::fromStdString(path), file);
    const Tensor copy = readNpyFile(path, kLimits);
    QVERIFY(!isMappedFile(copy.raw()));
    const Tensor t = enabled ? readMapped(path) : readNpyFile(path, kLimits);
    QCOMPARE(isMappedFile(t.raw()), mapped);
    QVERIFY(t.identical(copy));
    checkMappedInputs({t}); // the file is as it was: no error
}

void TestMappedNpy::aTruncatedFileIsAnErrorNotACrash()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("t.npy");
    const std::int64_t n = 1 << 20;
    writeFile(path, npyFile("<f4", false, "(" + std::to_string(n) + ",)", elementBytes(n, 4), 128));
    const Tensor t = readMapped(path.toStdString());
    QVERIFY(isMappedFile(t.raw()));
    // Another program cuts the file short while the tensor is in use: its pages past the new
    // end are gone, and reading them raises SIGBUS.
    QVERIFY(::truncate(QFile::encodeName(path).constData(), 128 + 4000) == 0);
    readEveryByte(t);
    try {
        checkMappedInputs({t});
        QFAIL("a truncated input was not reported");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::BadRequest);
        QVERIFY2(std::string(e.what()).find("t.npy' was truncated while it was being read") !=
                     std::string::npos,
                 e.what());
    }
}

void TestMappedNpy::aFileChangedInPlaceIsAnError()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("c.npy");
    const std::int64_t n = 1 << 20;
    writeFile(path, npyFile("<f4", false, "(" + std::to_string(n) + ",)", elementBytes(n, 4), 128));
    const Tensor t = readMapped(path.toStdString());
    QVERIFY(isMappedFile(t.raw()));
    // Rewritten in place, same size: a mapping shows the new bytes, so what was computed may mix
    // both versions. The modification time tells (set apart explicitly: a write within the
    // filesystem's timestamp granularity would not).
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY);
    QVERIFY(fd >= 0);
    QCOMPARE(::pwrite(fd, "\xFF\xFF\xFF\xFF", 4, 128 + 4 * 1000), ssize_t(4));
    const timespec times[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
    QCOMPARE(::futimens(fd, times), 0);
    ::close(fd);
    try {
        checkMappedInputs({t});
        QFAIL("a changed input was not reported");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::BadRequest);
        QVERIFY2(std::string(e.what()).find("c.npy' was changed while it was being read") !=
                     std::string::npos,
                 e.what());
    }
}

void TestMappedNpy::aRequestOnATruncatedInputFails()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("x.npy");
    const std::int64_t n = 1 << 20;
    writeFile(path, npyFile("<f4", false, "(1024, 1024)", elementBytes(n, 4), 128));
    const Limits limits = kLimits.forRequest();
    const Request request =
        readRequest(getitemRequest(path, "x[::-1, 1:]", ", \"emit\": \"summary\""), limits);
    QVERIFY(isMappedFile(request.inputs.at(0).at(0).raw()));
    QVERIFY(::truncate(QFile::encodeName(path).constData(), 128 + 4096 * 3) == 0);
    try {
        runRequest(request, limits, testExecutor());
        QFAIL("a request on a truncated input gave a result");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::BadRequest);
        QVERIFY2(std::string(e.what()).find("x.npy' was truncated") != std::string::npos, e.what());
    }
}

void TestMappedNpy::mappedInputsAreNotAllocatedMemory()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("m.npy");
    const std::int64_t n = 16 << 20; // 64 MiB
    {
        QByteArray file = npyFile("<f4", false, "(" + std::to_string(n) + ",)", QByteArray(), 128);
        file.append(QByteArray(qsizetype(n * 4), '\x01'));
        writeFile(path, file);
    }
    const Tensor t = readMapped(path.toStdString());
    QVERIFY(isMappedFile(t.raw()));
    const std::int64_t resident = residentBytes();
    const std::int64_t allocated = allocatedResidentBytes();
    QCOMPARE(readEveryByte(t), std::uint64_t(n * 4));
    // Every page of the file is resident now, and none of it is the process's allocation: a
    // request's budget (Limits::forRequest) leaves it out. (Under AddressSanitizer the mapping's
    // shadow, one byte per eight, is allocated: 8 MiB here.)
    QVERIFY2(residentBytes() - resident > n * 4 / 2,
             qPrintable(QString::number(residentBytes() - resident)));
    QVERIFY2(allocatedResidentBytes() - allocated < n * 4 / 4,
             qPrintable(QString::number(allocatedResidentBytes() - allocated)));
}

// The CLI's `run` reads the same input request after request: once its tensors are gone, the
// mapping is kept, and the next read of the unchanged file gets its pages without faulting
// them in again (each fault traps to the hypervisor under a paravirtualised MMU: a mapped 64 MiB
// input read whole cost 4 ms more than the copy that read it, request after request).
void TestMappedNpy::aRepeatedReadReusesTheMapping()
{
    releaseIdleMappings();
    QTemporaryDir dir;
    const QString path = dir.filePath("r.npy");
    const std::int64_t n = 4 << 20; // 16 MiB
    writeFile(path, npyFile("<f4", false, "(" + std::to_string(n) + ",)", elementBytes(n, 4), 128));
    std::uint64_t sum = 0;
    {
        const Tensor t = readMapped(path.toStdString());
        QVERIFY(isMappedFile(t.raw()));
        sum = readEveryByte(t);
    }
    const Tensor again = readMapped(path.toStdString());
    QVERIFY(isMappedFile(again.raw()));
    const long before = minorFaults();
    QCOMPARE(readEveryByte(again), sum);
    QVERIFY2(minorFaults() - before < 4, qPrintable(QString::number(minorFaults() - before)));
    checkMappedInputs({again});
}

void TestMappedNpy::aChangedFileIsMappedAfresh_data()
{
    QTest::addColumn<QString>("change");
    QTest::newRow("rewritten in place, a new modification time") << "in place";
    QTest::newRow("replaced by another file (rename)") << "replaced";
    QTest::newRow("truncated") << "truncated";
    QTest::newRow("deleted and written anew") << "deleted";
}

// A kept mapping is reused only for the same file as it was: after any change the next read maps
// the file as it is now, reads its new bytes (or reports it truncated), and checkMappedInputs
// compares against the file as that read found it, not as the old mapping did.
void TestMappedNpy::aChangedFileIsMappedAfresh()
{
    QFETCH(QString, change);
    releaseIdleMappings();
    QTemporaryDir dir;
    const QString path = dir.filePath("k.npy");
    const std::int64_t n = 1 << 20;
    const QByteArray header = npyFile("<f4", false, "(" + std::to_string(n) + ",)", {}, 128);
    writeFile(path, header + elementBytes(n, 4));
    {
        const Tensor t = readMapped(path.toStdString());
        QVERIFY(isMappedFile(t.raw()));
        readEveryByte(t);
    }
    QByteArray changed = elementBytes(n, 4);
    changed[4 * 1000] = '\x7F';
    const QByteArray file = QFile::encodeName(path);
    if (change == "in place") {
        const int fd = ::open(file.constData(), O_WRONLY);
        QVERIFY(fd >= 0);
        QCOMPARE(::pwrite(fd, changed.constData() + 4 * 1000, 1, 128 + 4 * 1000), ssize_t(1));
        const timespec times[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
        QCOMPARE(::futimens(fd, times), 0);
        ::close(fd);
    } else if (change == "replaced") {
        writeFile(path + ".new", header + changed);
        QCOMPARE(std::rename((file + ".new").constData(), file.constData()), 0);
    } else if (change == "truncated") {
        QVERIFY(::truncate(file.constData(), 128 + 4000) == 0);
    } else {
        QVERIFY(QFile::remove(path));
        writeFile(path, header + changed);
    }
    if (change == "truncated") {
        try {
            readMapped(path.toStdString());
            QFAIL("a truncated file was read");
        } catch (const OpError& e) {
            QVERIFY2(std::string(e.what()).find("truncated") != std::string::npos, e.what());
        }
        return;
    }
    const Tensor t = readMapped(path.toStdString());
    QVERIFY(isMappedFile(t.raw()));
    QVERIFY(t.identical(readNpyFile(path.toStdString(), kLimits)));
    QCOMPARE(static_cast<const unsigned char*>(t.raw())[4 * 1000], 0x7Fu);
    checkMappedInputs({t}); // the file as this read found it: no error
    // The old mapping was not kept beside the new one.
    QCOMPARE(releaseIdleMappings(), 0);
}

void TestMappedNpy::aFileBiggerThanTheLimitsIsSlicedWhereItLies_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<Shape>("shape");
    QTest::newRow("a row") << "x[12000]" << Shape{16384};
    QTest::newRow("a strided, reversed corner") << "x[::1000, ::-7]" << Shape{33, 2341};
}

// A tensor bigger than memory: a mapped file is page cache, so neither the element limit nor the
// byte limit (which bound what the process allocates) refuses it; only what a request makes from
// it is charged. 2 GiB of float32, sparse (it takes no disk), with one row written; a budget of
// 64 MiB and 2^24 elements, which the copy the file used to be read into is refused by.
void TestMappedNpy::aFileBiggerThanTheLimitsIsSlicedWhereItLies()
{
    QFETCH(QString, expr);
    QFETCH(Shape, shape);
    constexpr std::int64_t rows = 32768, cols = 16384, written = 12000;
    QTemporaryDir dir;
    const QString path = dir.filePath("big.npy");
    writeFile(path, npyFile("<f4", false, "(32768, 16384)", QByteArray(), 128));
    QVERIFY(::truncate(QFile::encodeName(path).constData(), 128 + rows * cols * 4) == 0);
    std::vector<float> row(static_cast<std::size_t>(cols));
    for (std::int64_t c = 0; c < cols; ++c)
        row[std::size_t(c)] = float(c + 1);
    {
        const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY);
        QVERIFY(fd >= 0);
        const auto bytes = ssize_t(cols * 4);
        QCOMPARE(::pwrite(fd, row.data(), std::size_t(bytes), 128 + written * cols * 4), bytes);
        ::close(fd);
    }
    Limits limits = withMaxBytes(kLimits, 64 << 20);
    limits.maxElements = 1 << 24;
    const Json json = getitemRequest(path, expr.toStdString());
    // Read into memory, it is refused before anything is allocated.
    try {
        requestFromJson(json, limits.forRequest());
        QFAIL("a 2 GiB copy fitted a 64 MiB limit");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::ResourceExhausted);
    }
    const std::int64_t allocated = allocatedResidentBytes();
    const Limits budget = limits.forRequest();
    Request request;
    try {
        request = readRequest(json, budget);
    } catch (const OpError& e) {
        QFAIL(e.what());
    }
    const Tensor& input = request.inputs.at(0).at(0);
    QVERIFY(isMappedFile(input.raw()));
    QCOMPARE(input.shape(), (Shape{rows, cols}));
    const RequestResult result = runRequest(request, budget, testExecutor());
    const Tensor& out = result.outputs.at(0);
    QCOMPARE(out.shape(), shape);
    // The written row is row 12 of the strided corner, read from its end in steps of 7.
    const float* v = out.data<float>();
    if (shape.size() == 1) {
        QVERIFY(std::equal(row.begin(), row.end(), v));
    } else {
        for (std::int64_t r = 0; r < shape[0]; ++r)
            for (std::int64_t c = 0; c < shape[1]; ++c) {
                const float want = r * 1000 == written ? row[std::size_t(cols - 1 - 7 * c)] : 0.0f;
                if (v[r * shape[1] + c] != want)
                    QFAIL(qPrintable(QStringLiteral("element [%1, %2] is %3, not %4")
                                         .arg(r)
                                         .arg(c)
                                         .arg(double(v[r * shape[1] + c]))
                                         .arg(double(want))));
            }
    }
    // Only the output (and the request's own bookkeeping) was allocated.
    QVERIFY2(allocatedResidentBytes() - allocated < 32 << 20,
             qPrintable(QString::number(allocatedResidentBytes() - allocated)));
}

namespace {

// The getitem request `expr` on the .npy file at `path`, read mapped or into memory.
RequestResult getitemOnFile(const QString& path, const std::string& expr, bool mapped)
{
    const Limits limits = kLimits.forRequest();
    const Request request = readRequest(getitemRequest(path, expr), limits, mapped);
    return runRequest(request, limits, testExecutor());
}

} // namespace

void TestMappedNpy::aContiguousBlockSharesTheFilesPages_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<std::int64_t>("firstElement"); // of the input, where the result starts
    QTest::addColumn<bool>("shared");
    QTest::newRow("a row") << "x[7]" << std::int64_t(7 * 65536) << true;
    QTest::newRow("rows") << "x[2:5]" << std::int64_t(2 * 65536) << true;
    QTest::newRow("a row's rows") << "x[7, 3:9]" << std::int64_t(7 * 65536 + 3 * 256) << true;
    QTest::newRow("a row, new axes") << "x[None, 7, ..., None]" << std::int64_t(7 * 65536) << true;
    QTest::newRow("the whole") << "x[...]" << std::int64_t(0) << true;
    // Not at a 64-byte boundary (the alignment of every tensor buffer): copied.
    QTest::newRow("unaligned") << "x[7, 0, 1:]" << std::int64_t(-1) << false;
    // Not consecutive elements: copied.
    QTest::newRow("columns") << "x[7, :, 1:]" << std::int64_t(-1) << false;
    QTest::newRow("reversed") << "x[7, ::-1]" << std::int64_t(-1) << false;
}

// NumPy's x[7] is a view; here a result that is a run of consecutive elements of a mapped input
// is that input's pages too (no copy, no allocation), and equal to the copy a read file gives.
void TestMappedNpy::aContiguousBlockSharesTheFilesPages()
{
    QFETCH(QString, expr);
    QFETCH(std::int64_t, firstElement);
    QFETCH(bool, shared);
    QTemporaryDir dir;
    const QString path = dir.filePath("x.npy");
    const std::int64_t n = 16 * 256 * 256;
    writeFile(path, npyFile("<f4", false, "(16, 256, 256)", elementBytes(n, 4), 128));
    const RequestResult copied = getitemOnFile(path, expr.toStdString(), false);
    const RequestResult mapped = getitemOnFile(path, expr.toStdString(), true);
    const Tensor& input = mapped.inputs.at(0);
    QVERIFY(isMappedFile(input.raw()));
    const Tensor& out = mapped.outputs.at(0);
    QVERIFY(out.identical(copied.outputs.at(0)));
    QCOMPARE(isMappedFile(out.raw()), shared);
    if (shared) QCOMPARE(out.raw(), static_cast<const void*>(input.data<float>() + firstElement));
    checkMappedInputs(mapped.outputs);
}

// A result that shares a mapped file's pages is checked like the file: cut short under it, the
// result is not saved (no file appears), and the error says why; intact, it saves the row.
void TestMappedNpy::aSharedBlockOfATruncatedFileIsNotSaved()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("x.npy");
    const std::int64_t n = 16 * 256 * 256;
    writeFile(path, npyFile("<f4", false, "(16, 256, 256)", elementBytes(n, 4), 128));
    const RequestResult result = getitemOnFile(path, "x[7]", true);
    const Tensor row = result.outputs.at(0);
    QVERIFY(isMappedFile(row.raw()));
    const std::string saved = dir.filePath("row.npy").toStdString();
    writeNpyFile(saved, row);
    QVERIFY(readNpyFile(saved, kLimits).identical(row.clone()));
    QVERIFY(
        readNpyFile(saved, kLimits).identical(getitemOnFile(path, "x[7]", false).outputs.at(0)));

    // Cut in the middle of row 3: row 7 is gone from the file.
    QVERIFY(::truncate(QFile::encodeName(path).constData(), 128 + 3 * 65536 * 4) == 0);
    const std::string lost = dir.filePath("lost.npy").toStdString();
    try {
        writeNpyFile(lost, row);
        QFAIL("a row of a truncated file was saved");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::BadRequest);
        QVERIFY2(std::string(e.what()).find("x.npy' was truncated") != std::string::npos, e.what());
    }
    QVERIFY(!QFile::exists(QString::fromStdString(lost)));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2); // x, row
}

// `eval --save` of x[:100000] of a 16 GB file (8 GB, which shares the file's pages) ended with
// 7.8 GB resident: write() mapped every page of it into the process. A mapped file is saved a
// chunk at a time, each chunk's pages let go once written. 256 MiB of float32 in a sparse file
// (one element written), saved to a tmpfs (no disk to wait for).
void TestMappedNpy::aSavedFileLeavesNoPagesResident()
{
    constexpr std::int64_t rows = 4096, cols = 16384, bytes = rows * cols * 4;
    QTemporaryDir dir;
    const QString path = dir.filePath("big.npy");
    writeFile(path, npyFile("<f4", false, "(4096, 16384)", QByteArray(), 128));
    QVERIFY(::truncate(QFile::encodeName(path).constData(), 128 + bytes) == 0);
    {
        const float last = 2.5f;
        const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY);
        QVERIFY(fd >= 0);
        QCOMPARE(::pwrite(fd, &last, 4, 128 + bytes - 4), ssize_t(4));
        ::close(fd);
    }
    const Tensor big = readMapped(path.toStdString());
    QVERIFY(isMappedFile(big.raw()));
    QTemporaryDir shm(QStringLiteral("/dev/shm/tst_mapped_npy-XXXXXX"));
    QVERIFY(shm.isValid());
    const std::string saved = shm.filePath("saved.npy").toStdString();
    const std::int64_t before = residentBytes();
    writeNpyFile(saved, big);
    const std::int64_t growth = residentBytes() - before;
    QVERIFY2(growth < 32 << 20, qPrintable(QStringLiteral("%1 MB more resident after saving")
                                               .arg(growth >> 20)));
    const Tensor back = readMapped(saved);
    QCOMPARE(back.shape(), (Shape{rows, cols}));
    QCOMPARE(back.data<float>()[rows * cols - 1], 2.5f);
    QVERIFY(std::memcmp(back.raw(), big.raw(), std::size_t(bytes)) == 0);
}

void TestMappedNpy::aViewOfAFileIsNotHeldToTheLimits_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("slot");  // the file's input
    QTest::addColumn<QString>("attrs"); // JSON
    QTest::addColumn<QString>("refusal"); // empty: the result shares the file's pages
    auto getitem = [](const char* name, const char* expr, const QString& refusal) {
        QTest::newRow(name) << "getitem"
                            << "input" << QStringLiteral("{\"expr\": \"%1\"}").arg(QLatin1String(expr))
                            << refusal;
    };
    getitem("the whole", "x[...]", "");
    getitem("the whole, sliced", "x[:, :]", "");
    getitem("rows", "x[16:48]", "");
    getitem("reversed", "x[::-1]",
            "the output of shape [512,512] has 262144 elements, over the limit of 1000 elements");
    getitem("columns", "x[:, 1:]",
            "the output of shape [512,511] has 261632 elements, over the limit of 1000 elements");
    // The other ops that plan a box of the input (tf.slice, Paddle's and ONNX's slices) and the
    // framework models' plans (compare), held to the file's limits as strided_slice is.
    QTest::newRow("tf.slice, rows") << "slice"
                                    << "input"
                                    << R"({"begin": [16, 0], "size": [32, -1]})"
                                    << "";
    QTest::newRow("tf.slice, columns")
        << "slice"
        << "input" << R"({"begin": [0, 1], "size": [-1, -1]})"
        << "the output of shape [512,511] has 261632 elements, over the limit of 1000 elements";
    QTest::newRow("paddle_strided_slice, rows")
        << "paddle_strided_slice"
        << "input" << R"({"axes": [0], "starts": [16], "ends": [48], "strides": [1]})"
        << "";
    QTest::newRow("onnx_slice, the whole") << "onnx_slice"
                                           << "data"
                                           << R"({"starts": [0], "ends": [512], "axes": [0]})"
                                           << "";
    QTest::newRow("compare, rows") << "compare"
                                   << "input"
                                   << R"({"expr": "x[16:48]"})"
                                   << "";
    // Ops whose output is their input (issue 24): planned as views of the file and checked as
    // the others are, instead of refused by a size check made before their plan.
    QTest::newRow("tile by ones") << "tile"
                                  << "input" << R"({"multiples": [1, 1]})"
                                  << "";
    QTest::newRow("tile by two")
        << "tile"
        << "input" << R"({"multiples": [2, 1]})"
        << "the output of shape [1024,512] has 524288 elements, over the limit of 1000 elements";
    QTest::newRow("pad by zeros") << "pad"
                                  << "tensor" << R"({"paddings": [[0, 0], [0, 0]]})"
                                  << "";
    QTest::newRow("mirror pad by zeros")
        << "pad"
        << "tensor" << R"({"paddings": [[0, 0], [0, 0]], "mode": "REFLECT"})"
        << "";
    QTest::newRow("pad by one")
        << "pad"
        << "tensor" << R"({"paddings": [[0, 0], [0, 1]]})"
        << "the output of shape [512,513] has 262656 elements, over the limit of 1000 elements";
    QTest::newRow("transpose, the identity") << "transpose"
                                             << "a" << R"({"perm": [0, 1]})"
                                             << "";
    QTest::newRow("reverse of no axes") << "reverse"
                                        << "tensor" << R"({"axis": []})"
                                        << "";
    QTest::newRow("concat of one") << "concat"
                                   << "values[]" << R"({"axis": 0})"
                                   << "";
    QTest::newRow("stack of one") << "stack"
                                  << "values[]" << R"({"axis": 0})"
                                  << "";
    QTest::newRow("stack of one, inner axis") << "stack"
                                              << "values[]" << R"({"axis": 2})"
                                              << "";
}

// An output that shares a mapped file's pages is memory the process never allocates: it is held
// to what a mapped file may be (rank, 2^40 elements), not to the element and byte limits, and is
// not charged to the request's budget. A copy over the limits is refused as before, before
// anything is allocated. 2^18 float32 elements (1 MiB, which is mapped), a limit of 1000.
void TestMappedNpy::aViewOfAFileIsNotHeldToTheLimits()
{
    QFETCH(QString, op);
    QFETCH(QString, slot);
    QFETCH(QString, attrs);
    QFETCH(QString, refusal);
    QTemporaryDir dir;
    const QString path = dir.filePath("x.npy");
    const std::int64_t n = 512 * 512;
    writeFile(path, npyFile("<f4", false, "(512, 512)", elementBytes(n, 4), 128));
    Limits limits = kLimits;
    limits.maxElements = 1000;
    const Json json = fileRequest(path, op.toStdString(), slot.toStdString(), attrs.toStdString(),
                                  ", \"emit\": \"summary\"");
    const Limits budget = limits.forRequest();
    Request request;
    try {
        request = readRequest(json, budget);
    } catch (const OpError& e) {
        QFAIL(e.what());
    }
    const Tensor& input = request.inputs.at(0).at(0);
    QVERIFY(isMappedFile(input.raw()));
    const std::int64_t charged = budget.budget->charged();
    try {
        const RequestResult result = runRequest(request, budget, testExecutor());
        QVERIFY2(refusal.isEmpty(), "a copy over the element limit was made");
        const Tensor& out = result.outputs.at(0);
        QVERIFY(isMappedFile(out.raw()));
        const Limits unlimited = kLimits.forRequest();
        const RequestResult copied =
            runRequest(readRequest(json, unlimited, false), unlimited, testExecutor());
        QVERIFY(out.identical(copied.outputs.at(0)));
        // Only the response's text was charged, not the output's 4 bytes an element.
        QCOMPARE(budget.budget->charged() - charged, result.responseBytes);
    } catch (const OpError& e) {
        QVERIFY2(!refusal.isEmpty(), e.what());
        QCOMPARE(e.code(), ErrorCode::ResourceExhausted);
        QCOMPARE(QString::fromUtf8(e.what()), refusal);
        QCOMPARE(budget.budget->charged(), charged);
    }
}

QTEST_APPLESS_MAIN(TestMappedNpy)
// A workspace writes a big mapped input as its file's path: only the whole range read from the
// file is that file; a block of it that shares its pages (x[7]) is not.
void TestMappedNpy::onlyTheWholeMappedRangeIsTheFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("v.npy").toStdString();
    const std::int64_t n = 1 << 18;
    writeFile(QString::fromStdString(path),
              npyFile("<f4", false, "(512, 512)", elementBytes(n, 4), 128));
    const Tensor t = readMapped(path);
    QVERIFY(isMappedFile(t.raw()));
    QCOMPARE(mappedFilePath(t.raw(), n * 4).value_or("(none)"), path);
    const Tensor row = t.view(512 * 7, {512});
    QVERIFY(isMappedFile(row.raw()));
    QVERIFY(!mappedFilePath(row.raw(), 512 * 4));
    const Tensor first = t.view(0, {512}); // where the file's data starts, but not all of it
    QVERIFY(!mappedFilePath(first.raw(), 512 * 4));
}

// The views of x[:n] of a file sample the input (all of it) and the output (its first rows) at
// once, each between adviseScatteredReads(true) and (false): the output's pages are read without
// readahead until its own sampling ends, not until the input's does.
void TestMappedNpy::aFileIsReadInOrderAgainWhenItsLastSamplerEnds()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("s.npy").toStdString();
    const std::int64_t n = 1 << 20; // 4 MiB
    writeFile(QString::fromStdString(path),
              npyFile("<f4", false, "(1024, 1024)", elementBytes(n, 4), 128));
    const Tensor t = readMapped(path);
    QVERIFY(isMappedFile(t.raw()));
    const Tensor rows = t.view(0, {512, 1024});
    const auto bytes = [](const Tensor& x) { return x.size() * dtypeSize(x.dtype()); };
    QVERIFY(!readsScattered(rows.raw()));
    adviseScatteredReads(t.raw(), bytes(t), true);
    adviseScatteredReads(rows.raw(), bytes(rows), true);
    adviseScatteredReads(t.raw(), bytes(t), false); // the input's sampling ends first
    QVERIFY(readsScattered(rows.raw()));
    QVERIFY(readsScattered(static_cast<const char*>(t.raw()) + bytes(t) - 1));
    adviseScatteredReads(rows.raw(), bytes(rows), false);
    QVERIFY(!readsScattered(rows.raw()));
    QVERIFY(!readsScattered(static_cast<const char*>(t.raw()) + bytes(t) - 1));
    // Memory that is not a mapped file is left alone.
    std::vector<float> plain(1 << 20);
    adviseScatteredReads(plain.data(), std::int64_t(plain.size() * sizeof(float)), true);
    QVERIFY(!readsScattered(plain.data() + plain.size() / 2));
}

void TestMappedNpy::aStridedViewOfAColdFileReadsAboutItsPages_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<int>("pages"); // the pages of the file it reads
    // 16 rows of 64 KiB, 16 MiB apart: 16 pages each.
    QTest::newRow("rows reversed, every 7th") << "x[::256, ::-7]" << 16 * 16;
    QTest::newRow("a column") << "x[::256, 5]" << 16;
    QTest::newRow("rows") << "x[::256, 1:]" << 16 * 16;
}

// A strided view of a file not in the page cache reads about the pages it uses: each first touch
// of a row brought in a readahead window around it (read_ahead_kb, 8 MiB on the test machine's
// disk: 2,048 pages a row) when the plan's pages were not asked for ahead (plan_reads.h). 256 MiB
// of float32, 4096 x 16384, a hole on the disk.
void TestMappedNpy::aStridedViewOfAColdFileReadsAboutItsPages()
{
    QFETCH(QString, expr);
    QFETCH(int, pages);
    QTemporaryDir dir;
    const QString path = dir.filePath("cold.npy");
    constexpr std::int64_t bytes = std::int64_t(4096) * 16384 * 4;
    QVERIFY(writeSparseNpy(path, "<f4", "(4096, 16384)", bytes));
    QVERIFY(evictFromPageCache(path));
    const Limits limits = kLimits.forRequest();
    const Request request =
        readRequest(getitemRequest(path, expr.toStdString(), ", \"emit\": \"summary\""), limits);
    const Tensor& input = request.inputs.at(0).at(0);
    QVERIFY(isMappedFile(input.raw()));
    const RequestResult result = runRequest(request, limits, testExecutor());
    QVERIFY(!isMappedFile(result.outputs.at(0).raw())); // a copy, read from the file
    const std::int64_t cached = cachedPages(input.raw(), bytes);
    QVERIFY2(cached >= 0 && cached <= 2 * pages + 16,
             qPrintable(QStringLiteral("%1 pages read for %2 used").arg(cached).arg(pages)));
}

#include "tst_mapped_npy.moc"
