// SPDX-License-Identifier: GPL-3.0-or-later
// The dtypes NumPy writes and TensorFlow slices (float16, bfloat16, complex64/128, uint16/32/64),
// against NumPy 1.24 itself: NumPy saves an .npy of random bit patterns, slicescope-cli reads it,
// slices it with random basic subscripts and saves the result, and NumPy's x[subscript] must
// hold the same bytes (tst_npy_dtypes.py). One row per dtype and byte order.
#include "numpy_oracle.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ss::testing;

class TestNpyDTypes : public QObject
{
    Q_OBJECT
private slots:
    void slicedFilesEqualNumpy_data();
    void slicedFilesEqualNumpy();
};

void TestNpyDTypes::slicedFilesEqualNumpy_data()
{
    QTest::addColumn<QString>("descr");
    // NumPy's type strings; V2 is bfloat16 as NumPy saves a 2-byte void, <V2 as ml_dtypes does.
    // Strings keep their type: bytes stay bytes, the length stays the file's.
    for (const char* descr :
         {"<f2", ">f2", "<c8", ">c8", "<c16", ">c16", "<u2", ">u2", "<u4", ">u4",
          "<u8", ">u8", "V2",  "<V2", "|S5",  "|S1",  "<U3", ">U3", "|S0", "<U0"})
        QTest::newRow(descr) << QString::fromLatin1(descr);
}

void TestNpyDTypes::slicedFilesEqualNumpy()
{
    QFETCH(QString, descr);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // 6 subscripts per row (108 runs of the executable, a few seconds on an idle machine): well
    // inside the suite's time limit under AddressSanitizer too. SLICESCOPE_NPY_DTYPE_CASES asks
    // for more.
    const int count = qEnvironmentVariableIntValue("SLICESCOPE_NPY_DTYPE_CASES") > 0
                          ? qEnvironmentVariableIntValue("SLICESCOPE_NPY_DTYPE_CASES")
                          : 6;
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(numpyPython(), {sourceDir() + QStringLiteral("/tests/protocol/tst_npy_dtypes.py"),
                            QStringLiteral(SLICESCOPE_CLI_PATH), dir.path(), descr,
                            QString::number(count), QString::number(qHash(descr) % 1000)});
    QVERIFY2(p.waitForFinished(100000), "the differential script did not finish");
    const QByteArray output = p.readAll();
    qInfo("%s", output.trimmed().constData());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, output.constData());
}

QTEST_GUILESS_MAIN(TestNpyDTypes)
#include "tst_npy_dtypes.moc"
