// SPDX-License-Identifier: GPL-3.0-or-later
// The one file writer: a file appears whole or not at all, a full disk keeps the old file and
// says "No space left on device", and a target that is not a regular file (a FIFO, a directory,
// a symbolic link to one or to nothing) is refused before anything is written. Special files
// are made in a temporary directory; no real device node is ever a target.
#include "protocol/atomic_file.h"
#include "protocol_test.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ss;

namespace {

QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

bool put(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QStringList filesIn(const QString& dir)
{
    return QDir(dir).entryList(
        QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

std::string write(const QString& path, const QByteArray& bytes)
{
    return writeFileAtomically(path,
                               std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private slots:
    void writesAndReplaces();
    void keepsTheModeOfTheFileItReplaces();
    void writesThroughASymbolicLink();
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void namesAMissingDirectory();
    void aThrowingProducerLeavesNothing();
    void aFullDiskKeepsTheOldFile();
};

void TestAtomicFile::writesAndReplaces()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("a.bin"));
    QCOMPARE(write(path, "first"), std::string());
    QCOMPARE(contents(path), QByteArray("first"));
    // In chunks, as the .npy writer hands them over.
    QCOMPARE(writeFileAtomically(path,
                                 [](const ByteSink& sink) {
                                     for (int k = 0; k < 1000; ++k)
                                         sink("0123456789", 10);
                                 }),
             std::string());
    QCOMPARE(contents(path), QByteArray("0123456789").repeated(1000));
    QCOMPARE(filesIn(dir.path()), QStringList{QStringLiteral("a.bin")}); // no temporary left
}

void TestAtomicFile::keepsTheModeOfTheFileItReplaces()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("script.sh"));
    QVERIFY(put(path, "old"));
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0751), 0);
    QCOMPARE(write(path, "new"), std::string());
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
    QCOMPARE(int(st.st_mode & 07777), 0751);
}

void TestAtomicFile::writesThroughASymbolicLink()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("real.txt"));
    const QString link = dir.filePath(QStringLiteral("link.txt"));
    QVERIFY(put(target, "old"));
    QVERIFY(QFile::link(target, link));
    QCOMPARE(write(link, "new"), std::string());
    QCOMPARE(contents(target), QByteArray("new"));
    QVERIFY(QFileInfo(link).isSymLink()); // still a link, to the rewritten file
    QCOMPARE(filesIn(dir.path()),
             (QStringList{QStringLiteral("link.txt"), QStringLiteral("real.txt")}));
}

void TestAtomicFile::refusesWhatIsNotARegularFile_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("FIFO") << "fifo"
                          << "not a regular file (it is a FIFO)";
    QTest::newRow("directory") << "directory"
                               << "not a regular file (it is a directory)";
    QTest::newRow("link to a FIFO") << "link to fifo"
                                    << "not a regular file (it is a FIFO)";
    QTest::newRow("link to nothing") << "dangling link"
                                     << "not a regular file (a symbolic link to a missing file)";
}

// Renaming over a FIFO or a device node replaces it (as root, /dev/full was destroyed this way)
// and writing into one reports success for bytes that went nowhere: both are refused, and the
// special file is left as it was.
void TestAtomicFile::refusesWhatIsNotARegularFile()
{
    QFETCH(QString, kind);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QString target = dir.filePath(QStringLiteral("target"));
    if (kind == "fifo") target = fifo;
    if (kind == "directory") QVERIFY(QDir().mkdir(target));
    if (kind == "link to fifo") QVERIFY(QFile::link(fifo, target));
    if (kind == "dangling link") QVERIFY(QFile::link(dir.filePath(QStringLiteral("gone")), target));
    const QStringList before = filesIn(dir.path());
    QCOMPARE(QString::fromStdString(checkWriteTarget(target)), reason);
    bool produced = false;
    QCOMPARE(QString::fromStdString(writeFileAtomically(target,
                                                        [&](const ByteSink& sink) {
                                                            produced = true;
                                                            sink("x", 1);
                                                        })),
             reason);
    QVERIFY(!produced); // refused before anything was made
    QCOMPARE(filesIn(dir.path()), before);
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(fifo).constData(), &st), 0);
    QVERIFY(S_ISFIFO(st.st_mode));
}

void TestAtomicFile::namesAMissingDirectory()
{
    QTemporaryDir dir;
    QCOMPARE(write(dir.filePath(QStringLiteral("no/such/dir/a.txt")), "x"),
             std::string("No such file or directory"));
    QCOMPARE(checkWriteTarget(QString::fromUtf8("a\0b", 3)),
             std::string("the path contains a NUL byte"));
}

void TestAtomicFile::aThrowingProducerLeavesNothing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kept.txt"));
    QVERIFY(put(path, "old"));
    bool threw = false;
    try {
        writeFileAtomically(path, [](const ByteSink& sink) {
            sink("partial", 7);
            throw std::runtime_error("the producer failed");
        });
    } catch (const std::runtime_error&) {
        threw = true;
    }
    QVERIFY(threw);
    QCOMPARE(contents(path), QByteArray("old"));
    QCOMPARE(filesIn(dir.path()), QStringList{QStringLiteral("kept.txt")});
}

// A 64 KiB tmpfs, filled, is the full disk (mounting needs root; elsewhere the test is skipped,
// like the other full-disk tests). The old file stays whole, the reason is the system's, and the
// partial temporary is removed.
void TestAtomicFile::aFullDiskKeepsTheOldFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray mountPoint = QFile::encodeName(dir.path());
    if (::mount("tmpfs", mountPoint.constData(), "tmpfs", 0, "size=64k") != 0)
        QSKIP(qPrintable(QStringLiteral("cannot mount a small tmpfs to fill (needs root): ") +
                         QString::fromLocal8Bit(std::strerror(errno))));
    const QString path = dir.filePath(QStringLiteral("w.svg"));
    const QByteArray old = QByteArray("<svg>") + QByteArray(20000, 'o') + "</svg>";
    const bool wroteOld = put(path, old);
    const std::string why = write(path, QByteArray(100000, 'n'));
    const QByteArray after = contents(path);
    // Filled to the last byte: even the first write of a new file fails.
    const QString filler = dir.filePath(QStringLiteral("filler"));
    {
        QFile fill(filler);
        fill.open(QIODevice::WriteOnly);
        const QByteArray block(4096, 'f');
        while (fill.write(block) > 0 && fill.flush()) {
        }
    }
    const std::string whyFull = write(dir.filePath(QStringLiteral("new.txt")), "a few bytes");
    QFile::remove(filler);
    const QStringList left = filesIn(dir.path());
    ::umount(mountPoint.constData());
    QVERIFY(wroteOld);
    QCOMPARE(why, std::string("No space left on device"));
    QCOMPARE(after, old);
    QCOMPARE(whyFull, std::string("No space left on device"));
    QCOMPARE(left, QStringList{QStringLiteral("w.svg")});
}

QTEST_APPLESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
