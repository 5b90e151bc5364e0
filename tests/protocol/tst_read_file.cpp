// SPDX-License-Identifier: GPL-3.0-or-later
// The one rule every reader of the app follows (read_file.h): regular files only, after
// following symlinks; a size cap checked before a byte is read; no NUL in a path. Each case
// answers at once: a FIFO without a writer or /dev/zero used to hang or grow without end.
#include "core/error.h"
#include "protocol/read_file.h"
#include "protocol_test.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace ss;

class TestReadFile : public QObject
{
    Q_OBJECT

private slots:
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void readsARegularFileWhole();
};

void TestReadFile::refusesWhatIsNotARegularFile_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("fifo") << "fifo"
                          << "it is a FIFO (named pipe), not a regular file";
    QTest::newRow("symlink to a fifo") << "fifo-link"
                                       << "it is a FIFO (named pipe), not a regular file";
    QTest::newRow("/dev/zero") << "zero"
                               << "it is a character device, not a regular file";
    QTest::newRow("symlink to /dev/urandom") << "urandom-link"
                                             << "it is a character device, not a regular file";
    QTest::newRow("directory") << "dir"
                               << "it is a directory";
    QTest::newRow("missing") << "missing"
                             << "No such file or directory";
    QTest::newRow("over the cap (sparse 1 TB)") << "huge"
                                                << "it is 1000000000000 bytes, over the limit of "
                                                   "1000 bytes";
    QTest::newRow("NUL in the path") << "nul"
                                     << "holds a NUL byte";
}

void TestReadFile::refusesWhatIsNotARegularFile()
{
    QFETCH(QString, kind);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::string path = dir.filePath("f.json").toStdString();
    if (kind == "fifo" || kind == "fifo-link") {
        const std::string fifo = dir.filePath("pipe").toStdString();
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        if (kind == "fifo")
            path = fifo;
        else
            QCOMPARE(symlink(fifo.c_str(), path.c_str()), 0);
    } else if (kind == "zero") {
        path = "/dev/zero";
    } else if (kind == "urandom-link") {
        QCOMPARE(symlink("/dev/urandom", path.c_str()), 0);
    } else if (kind == "dir") {
        path = dir.path().toStdString();
    } else if (kind == "huge") {
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(1000000000000)); // sparse: takes no disk
    } else if (kind == "nul") {
        path = dir.filePath("a").toStdString() + std::string(1, '\0') + "b";
    }
    const QString qpath = QString::fromStdString(path);
    for (int which = 0; which < 2; ++which) {
        try {
            if (which == 0)
                readRegularFile(path, 1000);
            else
                readRegularFile(qpath, 1000);
            QFAIL("no error");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::BadRequest);
            const std::string what = e.what();
            QVERIFY2(what.find(reason.toStdString()) != std::string::npos, e.what());
            if (kind != "nul") QVERIFY2(what.starts_with("cannot read '" + path + "': "), e.what());
        }
    }
}

void TestReadFile::readsARegularFileWhole()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("f.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray text(100000, 'x');
    file.write(text);
    file.close();
    QCOMPARE(readRegularFile(path, 100000), text);
    QCOMPARE(readRegularFile(path.toStdString(), 100000), text.toStdString());
    // Through a symlink: what it names is a regular file.
    const QString link = dir.filePath("link.json");
    QVERIFY(QFile::link(path, link));
    QCOMPARE(readRegularFile(link, 100000), text);
    QVERIFY_THROWS_EXCEPTION(OpError, readRegularFile(path, 99999));
}

QTEST_APPLESS_MAIN(TestReadFile)
#include "tst_read_file.moc"
