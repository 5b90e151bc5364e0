// SPDX-License-Identifier: GPL-3.0-or-later
// Once the window has settled the first time, the pages of the libraries' code and constants that
// start-up read leave the process's resident memory (dropStartUpPages): those still used come
// back from the page cache, and what the process wrote (its data, relocated pointers) stays.
#include "ui/model/startuppages.h"

#include <QString>
#include <QTest>

#include <fstream>
#include <sstream>
#include <string>

using namespace ss::ui;

namespace {

struct Resident
{
    double readOnlyKb = 0; // of the mappings that cannot be written
    double writtenKb = 0;  // the process's own pages in the file's mappings
};

// What the mappings of the file whose path contains `file` hold (/proc/self/smaps), read
// without Qt so that the reading brings no page of Qt's back.
Resident residentOf(const std::string& file)
{
    std::ifstream smaps("/proc/self/smaps");
    Resident resident;
    std::string line;
    bool inside = false, readOnly = false;
    while (std::getline(smaps, line)) {
        std::istringstream fields(line);
        std::string range, permissions, key;
        double kb = 0;
        if (line.find('-') < line.find(' ') && fields >> range >> permissions) {
            inside = line.find(file) != std::string::npos;
            readOnly = permissions.find('w') == std::string::npos;
        } else if (inside && fields >> key >> kb) {
            if (key == "Rss:" && readOnly) resident.readOnlyKb += kb;
            if (key == "Anonymous:") resident.writtenKb += kb;
        }
    }
    return resident;
}

} // namespace

class TestStartUpPages : public QObject
{
    Q_OBJECT
private slots:
    void readOnlySegmentsLeaveTheResidentMemory();
};

void TestStartUpPages::readOnlySegmentsLeaveTheResidentMemory()
{
    const Resident before = residentOf("libQt6Core");
    QVERIFY2(before.readOnlyKb >= 256, qPrintable(QString::number(before.readOnlyKb)));
    const std::int64_t dropped = dropStartUpPages();
    const Resident after = residentOf("libQt6Core");
    QVERIFY2(
        after.readOnlyKb < before.readOnlyKb / 2,
        qPrintable(QStringLiteral("%1 KB of %2").arg(after.readOnlyKb).arg(before.readOnlyKb)));
    QCOMPARE(after.writtenKb, before.writtenKb);
    QVERIFY(dropped >= std::int64_t(before.readOnlyKb) * 1024);
    // Qt's code runs again, its pages mapped from the page cache.
    QCOMPARE(QString::number(4096).repeated(2), QStringLiteral("40964096"));
}

QTEST_APPLESS_MAIN(TestStartUpPages)
#include "tst_startuppages.moc"
