// SPDX-License-Identifier: GPL-3.0-or-later
// Every view, heat map and evaluation shares the workbench's one worker pool: the number of
// threads stays bounded however many outputs are on screen (it used to grow by two per view).
#include "ui/model/workerpool.h"
#include "workbench_testing.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

// The names of this process's threads (/proc/self/task/<id>/comm).
QStringList threadNames()
{
    QStringList names;
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString& id : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(id + QStringLiteral("/comm")));
        names << (comm.open(QIODevice::ReadOnly) ? QString::fromUtf8(comm.readAll().trimmed())
                                                 : QString());
    }
    return names;
}

} // namespace

class TestThreads : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { useCleanTestEnvironment(); }
    void thousandOutputsShareOnePool();
    void aProcessCountLimitIsNotFatal_data();
    void aProcessCountLimitIsNotFatal();
};

void TestThreads::thousandOutputsShareOnePool()
{
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    MainWindow w;
    w.forgetSession();
    w.show();
    QVERIFY(waitSettled(w));
    // unstack of a 1000 x 2 tensor: 1,000 outputs, each in a view of its own, next to an input
    // of 2,000 elements.
    Workspace ws;
    ws.op = "unstack";
    ws.attrs = {{"axis", Attr(std::int64_t(0))}};
    ws.inputs = {{InputSource{}}};
    ws.inputs[0][0].shape = {1000, 2};
    w.setWorkspace(ws, QStringLiteral("unstack"));
    QVERIFY(waitSettled(w, 120000));
    QVERIFY2(w.lastEvaluation() && w.lastEvaluation()->ok,
             qPrintable(w.lastEvaluation() ? w.lastEvaluation()->message : QString()));
    QCOMPARE(w.outputViewCount(), 1000);

    const QStringList names = threadNames();
    // Qt's own global pool (image scaling and conversion use it) has at most its maximum,
    // whatever the workbench does; it is not ours to bound.
    const auto qtPool = names.count(QStringLiteral("Thread (pooled)"));
    const int ours = int(names.size() - qtPool);
    qInfo("%d threads (%d in Qt's global pool) with %d output views on %d cores; the workbench's "
          "pool has %d: %s",
          int(names.size()), int(qtPool), w.outputViewCount(), cores, WorkerPool::threadCount(),
          qPrintable(names.join(QStringLiteral(", "))));
    QVERIFY(WorkerPool::threadCount() <= std::max(2, cores));
    QVERIFY2(ours <= cores + 4, qPrintable(QStringLiteral("%1 threads").arg(ours)));
    QVERIFY(qtPool <= QThreadPool::globalInstance()->maxThreadCount());
}

void TestThreads::aProcessCountLimitIsNotFatal_data()
{
    QTest::addColumn<int>("threads");
    QTest::newRow("no new thread") << 0;
    QTest::newRow("one") << 1;
    QTest::newRow("three") << 3;
}

// Under a process-count limit (a pids cgroup, RLIMIT_NPROC) the GUI aborted (its pool's "could
// not start a worker thread" escaped the window's constructor) or hung (Qt's raster engine
// waited for a fill handed to a pool thread the system had refused). The real program, started
// with RLIMIT_NPROC allowing `threads` more tasks (as user nobody when run as root: the limit
// binds root only after it gives root up), must open, evaluate, answer and exit 0; with no
// thread at all it cannot draw, and says so (exit 1) instead of hanging.
void TestThreads::aProcessCountLimitIsNotFatal()
{
    QFETCH(int, threads);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    // nobody must be able to write its settings and autosaves here.
    QFile::setPermissions(home.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                           QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                           QFileDevice::WriteOther | QFileDevice::ExeOther);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    for (const char* var : {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"})
        env.insert(QLatin1String(var), home.filePath(QLatin1String(var)));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home.path());
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // The tasks the child's user has already, the child itself, and `threads`: counted here,
    // because the modifier runs in the child between fork and exec, where it may not allocate
    // (QProcess may start it with vfork semantics: an allocation there corrupted this process
    // under AddressSanitizer).
    const uid_t user = ::geteuid() == 0 ? uid_t(65534) : ::getuid();
    int tasks = 1;
    const QDir proc(QStringLiteral("/proc"));
    for (const QString& pid : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        struct stat st
        {
        };
        if (pid.toInt() > 0 &&
            ::stat(QFile::encodeName(QStringLiteral("/proc/") + pid).constData(), &st) == 0 &&
            st.st_uid == user)
            tasks += int(QDir(QStringLiteral("/proc/%1/task").arg(pid))
                             .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                             .size());
    }
    const rlimit limit{rlim_t(tasks + threads), rlim_t(tasks + threads)};
    QProcess gui;
    gui.setProcessEnvironment(env);
    gui.setChildProcessModifier([limit] {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(120);
        if (::setrlimit(RLIMIT_NPROC, &limit) != 0) ::_exit(121);
    });
    gui.start(QStringLiteral(SLICESCOPE_GUI_EXE),
              {QStringLiteral("--automation"), QStringLiteral("--shape"), QStringLiteral("6,7")});
    QVERIFY(gui.waitForStarted(10000));
    gui.write(R"({"id": 1, "cmd": "set_expr", "expr": "x[::-2, 1:]"})"
              "\n"
              R"({"id": 2, "cmd": "wait", "timeout_ms": 60000})"
              "\n"
              R"({"id": 3, "cmd": "state", "max_elements": 0})"
              "\n");
    gui.closeWriteChannel();
    const bool finished = gui.waitForFinished(120000);
    if (!finished) gui.kill();
    const QByteArray out = gui.readAllStandardOutput();
    const QByteArray err = gui.readAllStandardError();
    QVERIFY2(finished, "slicescope hung under the limit");
    if (threads == 0) {
        QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
        QCOMPARE(gui.exitCode(), 1);
        QVERIFY2(err.contains("the system lets this process start no thread"), err.constData());
        return;
    }
    QVERIFY2(gui.exitStatus() == QProcess::NormalExit && gui.exitCode() == 0,
             qPrintable(QStringLiteral("exit %1: %2")
                            .arg(gui.exitCode())
                            .arg(QString::fromUtf8(err.right(2000)))));
    const QList<QByteArray> answers = out.trimmed().split('\n');
    QCOMPARE(answers.size(), 3);
    QVERIFY2(answers[1].contains(R"("settled":true)"), answers[1].constData());
    QVERIFY2(answers[2].contains(R"("shape":[3,6])") && answers[2].contains(R"("error":null)"),
             answers[2].constData());
}

QTEST_MAIN(TestThreads)
#include "tst_threads.moc"
