// SPDX-License-Identifier: GPL-3.0-or-later
// The writers of core/strings.h, the one place the engine turns numbers and integer lists into
// text (issue 21: num() was defined 12 times and the "[a, b]" writer 5 times). Exact text for
// the values that differ between writers: int64's extremes, negative zero, NaN and the
// infinities, doubles that need all 17 digits, empty lists.
#include "core/strings.h"

#include <QProcess>
#include <QTest>

#include <cstdint>
#include <limits>

using namespace ss;

using Ints = std::vector<std::int64_t>;
Q_DECLARE_METATYPE(Ints)

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

} // namespace

class TestStrings : public QObject
{
    Q_OBJECT

private slots:
    void integer_data()
    {
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << "0";
        QTest::newRow("minus one") << qint64(-1) << "-1";
        QTest::newRow("int32 max + 1") << qint64(2147483648) << "2147483648";
        QTest::newRow("int64 max") << qint64(kMax) << "9223372036854775807";
        QTest::newRow("int64 min") << qint64(kMin) << "-9223372036854775808";
    }
    void integer()
    {
        QFETCH(qint64, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(num(value)), text);
        QCOMPARE(QString::fromStdString(strCat(std::int64_t(value))), text);
    }

    // Python's repr() of a str, and of bytes (NumPy's '|S' elements, and TensorFlow's strings in
    // code): a byte past ASCII is \xNN there, since b'\u00e9' is a SyntaxError in Python.
    void pythonString_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("bytes");
        QTest::addColumn<QByteArray>("repr");
        QTest::newRow("text") << QByteArray("it's") << false << QByteArray("\"it's\"");
        QTest::newRow("text past ASCII")
            << QByteArray("\xc3\xa9\n") << false << QByteArray("'\xc3\xa9\\n'");
        QTest::newRow("bytes") << QByteArray("it's") << true << QByteArray("b\"it's\"");
        QTest::newRow("bytes past ASCII")
            << QByteArray("\xc3\xa9\x7f") << true << QByteArray("b'\\xc3\\xa9\\x7f'");
        // Text escapes what str.isprintable() says Python does not print.
        QTest::newRow("U+0085") << QByteArray("a\xc2\x85") << false << QByteArray("'a\\x85'");
        QTest::newRow("no-break space U+00A0")
            << QByteArray("\xc2\xa0") << false << QByteArray("'\\xa0'");
        QTest::newRow("soft hyphen U+00AD")
            << QByteArray("\xc2\xad") << false << QByteArray("'\\xad'");
        QTest::newRow("line separator U+2028")
            << QByteArray("\xe2\x80\xa8") << false << QByteArray("'\\u2028'");
        QTest::newRow("unassigned U+0378")
            << QByteArray("\xcd\xb8") << false << QByteArray("'\\u0378'");
        QTest::newRow("private use U+E000")
            << QByteArray("\xee\x80\x80") << false << QByteArray("'\\ue000'");
        QTest::newRow("tag U+E0001")
            << QByteArray("\xf3\xa0\x80\x81") << false << QByteArray("'\\U000e0001'");
        QTest::newRow("emoji printed")
            << QByteArray("\xf0\x9f\x98\x80") << false << QByteArray("'\xf0\x9f\x98\x80'");
        QTest::newRow("bytes with both quotes")
            << QByteArray("'\"\\") << true << QByteArray("b'\\'\"\\\\'");
    }
    void pythonString()
    {
        QFETCH(QByteArray, value);
        QFETCH(bool, bytes);
        QFETCH(QByteArray, repr);
        QCOMPARE(QByteArray::fromStdString(pythonStringRepr(value.toStdString(), bytes)), repr);
    }

    // Every code point but the surrogates, against the repr of the Python that wrote the table
    // (python_nonprintable.h), in one process.
    void pythonStringMatchesPythonEverywhere()
    {
        QProcess python;
        python.start("/usr/bin/python3",
                     {"-c", "import sys\n"
                            "for cp in range(0x110000):\n"
                            "    if not 0xD800 <= cp <= 0xDFFF:\n"
                            "        sys.stdout.buffer.write(repr(chr(cp)).encode() + b'\\n')\n"});
        QVERIFY(python.waitForFinished(120000));
        QCOMPARE(python.exitCode(), 0);
        const QList<QByteArray> lines = python.readAllStandardOutput().split('\n');
        int k = 0;
        for (char32_t cp = 0; cp < 0x110000; ++cp) {
            if (cp >= 0xD800 && cp <= 0xDFFF) continue;
            std::string text; // UTF-8 by hand: QString::fromUcs4 drops a leading U+FEFF
            if (cp < 0x80) {
                text = char(cp);
            } else {
                const int n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
                text += char((0xF00 >> n) | (cp >> (6 * (n - 1))));
                for (int k = n - 2; k >= 0; --k)
                    text += char(0x80 | ((cp >> (6 * k)) & 0x3F));
            }
            const QByteArray ours = QByteArray::fromStdString(pythonStringRepr(text));
            if (ours != lines.at(k))
                QFAIL(
                    qPrintable(QString("U+%1: ours %2, Python's %3")
                                   .arg(quint32(cp), 4, 16, QChar('0'))
                                   .arg(QString::fromUtf8(ours), QString::fromUtf8(lines.at(k)))));
            ++k;
        }
    }

    // Python's repr() of a float, NaN and the infinities included (a NaN from a model file's
    // constant once threw out of here).
    void pythonFloat_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("repr");
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "nan";
        QTest::newRow("-nan") << -std::numeric_limits<double>::quiet_NaN() << "nan";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "inf";
        QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << "-inf";
        QTest::newRow("zero") << 0.0 << "0.0";
        QTest::newRow("negative zero") << -0.0 << "-0.0";
        QTest::newRow("0.1") << 0.1 << "0.1";
        QTest::newRow("1e16") << 1e16 << "1e+16";
        QTest::newRow("1e15") << 1e15 << "1000000000000000.0";
        QTest::newRow("0.0001") << 0.0001 << "0.0001";
        QTest::newRow("-2.5e-05") << -2.5e-05 << "-2.5e-05";
        // Doubles whose shortest round-trip text has all 17 significant digits.
        QTest::newRow("0.1 + 0.2") << 0.1 + 0.2 << "0.30000000000000004";
        QTest::newRow("1 + ulp") << 1.0000000000000002 << "1.0000000000000002";
        QTest::newRow("double max")
            << std::numeric_limits<double>::max() << "1.7976931348623157e+308";
        QTest::newRow("denormal min") << std::numeric_limits<double>::denorm_min() << "5e-324";
        QTest::newRow("int64 max as double") << double(kMax) << "9.223372036854776e+18";
    }
    void pythonFloat()
    {
        QFETCH(double, value);
        QFETCH(QString, repr);
        QCOMPARE(QString::fromStdString(pythonFloatRepr(value)), repr);
    }

    void list_data()
    {
        QTest::addColumn<Ints>("values");
        QTest::addColumn<QString>("joined");
        QTest::addColumn<QString>("list");
        QTest::newRow("empty") << Ints{} << ""
                               << "[]";
        QTest::newRow("one") << Ints{5} << "5"
                             << "[5]";
        QTest::newRow("negative") << Ints{1, -2, 3} << "1, -2, 3"
                                  << "[1, -2, 3]";
        QTest::newRow("extremes") << Ints{kMin, 0, kMax}
                                  << "-9223372036854775808, 0, 9223372036854775807"
                                  << "[-9223372036854775808, 0, 9223372036854775807]";
    }
    void list()
    {
        QFETCH(Ints, values);
        QFETCH(QString, joined);
        QFETCH(QString, list);
        QCOMPARE(QString::fromStdString(joinInts(values)), joined);
        QCOMPARE(QString::fromStdString(listText(values)), list);
        QCOMPARE(QString::fromStdString(joinText(values, num, ",")),
                 joined.remove(QLatin1Char(' ')));
    }

    void concatenation_data()
    {
        QTest::addColumn<QString>("built");
        QTest::addColumn<QString>("expected");
        const std::string name = "axis";
        QTest::newRow("nothing") << QString::fromStdString(strCat()) << "";
        QTest::newRow("text kinds")
            << QString::fromStdString(strCat("op '", name, std::string_view("': "), 'x'))
            << "op 'axis': x";
        QTest::newRow("integer kinds")
            << QString::fromStdString(strCat(-3, ' ', std::uint64_t(18446744073709551615u), ' ',
                                             kMin, ' ', std::size_t(0), ' ', short(-7)))
            << "-3 18446744073709551615 -9223372036854775808 0 -7";
        QTest::newRow("with a list")
            << QString::fromStdString(strCat("shape ", listText({2, 0}), " of rank ", 2))
            << "shape [2, 0] of rank 2";
    }
    void concatenation()
    {
        QFETCH(QString, built);
        QFETCH(QString, expected);
        QCOMPARE(built, expected);
    }
};

QTEST_APPLESS_MAIN(TestStrings)
#include "tst_strings.moc"
