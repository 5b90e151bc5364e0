// SPDX-License-Identifier: GPL-3.0-or-later
// The settings file rule against Qt's own reader (fuzz_settings found why: a damaged binary value
// makes QSettings ask for tens of gigabytes, which aborts under AddressSanitizer). Every spelling
// of a value that QSettings reads as a binary
// @Variant is found, whatever escapes, quotes, spaces or list commas spell it; every value the
// app itself writes, text that merely looks like one included, is not; and the start-up check
// keeps such a file aside, unchanged, with a message that names it.
#include "ui/model/filesaside.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss::ui;

class TestSettingsFiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void binarySpellingsAreFound_data();
    void binarySpellingsAreFound();
    void whatTheAppWritesIsNotRefused();
    void aFileWithABinaryValueIsKeptAside();

private:
    QByteArray writeFile(const QByteArray& text);
    QTemporaryDir m_dir;
    QByteArray m_binary; // "@Variant(...)" as QSettings writes a QVariantMap
};

void TestSettingsFiles::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // QSettings writes a map, a type it has no text for, as "@Variant(" + QDataStream bytes.
    const QString path = m_dir.filePath(QStringLiteral("written.conf"));
    {
        QSettings written(path, QSettings::IniFormat);
        written.setValue(QStringLiteral("k"), QVariantMap{{QStringLiteral("a"), 1}});
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    const qsizetype start = text.indexOf("@Variant(");
    QVERIFY2(start > 0, text.constData());
    m_binary = text.mid(start, text.indexOf('\n', start) - start);
    QVERIFY(m_binary.endsWith(')'));
}

QByteArray TestSettingsFiles::writeFile(const QByteArray& text)
{
    static int n = 0;
    const QString path = m_dir.filePath(QStringLiteral("case-%1.conf").arg(++n));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(text);
    return QFile::encodeName(path);
}

void TestSettingsFiles::binarySpellingsAreFound_data()
{
    QTest::addColumn<QByteArray>("line"); // "k=" + value; @V stands for the binary value
    QTest::newRow("as Qt writes it") << QByteArray("k=@V");
    QTest::newRow("spaces after =") << QByteArray("k=   \t@V");
    QTest::newRow("quoted") << QByteArray("k=\"@V\"");
    QTest::newRow("in a list") << QByteArray("k=text, @V");
    QTest::newRow("in a quoted list") << QByteArray("k=\"text\",\"@V\"");
    QTest::newRow("continued on the next line") << QByteArray("k=\\\n@V");
    QTest::newRow("continued after \\n\\r") << QByteArray("k=\\\n\r@V");
    QTest::newRow("after an escape that gives nothing") << QByteArray("k=\\z\\x@V");
    QTest::newRow("after a comment with a quote") << QByteArray("; \"\nk= @V");
    QTest::newRow("after a key with quotes") << QByteArray("\"k=\"=@V");
    QTest::newRow("@ as a hex escape") << QByteArray("k=\\x40@W");
    QTest::newRow("@ as a hex escape past 16 bits") << QByteArray("k=\\x10040@W");
    QTest::newRow("@ as an octal escape") << QByteArray("k=\\100@W");
    QTest::newRow("a letter as a hex escape") << QByteArray("k=@Vari\\x61nt(@R");
    QTest::newRow("an empty quote inside") << QByteArray("k=@Var\"\"iant(@R");
    QTest::newRow("in another section") << QByteArray("[s]\nk=@V");
}

// Each spelling is first shown to be one Qt really reads as binary (the value comes back as a
// map), then the rule must find it.
void TestSettingsFiles::binarySpellingsAreFound()
{
    QFETCH(QByteArray, line);
    const QByteArray rest = m_binary.mid(qsizetype(std::strlen("@Variant(")));
    QByteArray text = "[General]\nsize=@Size(10 20)\n" + line + "\nlast=1\n";
    text.replace("@V", m_binary).replace("@W", "Variant(" + rest).replace("@R", rest);
    const QString path = QFile::decodeName(writeFile(text));
    QSettings read(path, QSettings::IniFormat);
    QVariant value;
    for (const QString& key : read.allKeys())
        if (key != QStringLiteral("size") && !key.endsWith(QStringLiteral("last")))
            value = read.value(key);
    const QVariant first =
        value.typeId() == QMetaType::QVariantList ? value.toList().last() : value;
    QVERIFY2(first.typeId() == QMetaType::QVariantMap,
             qPrintable(QStringLiteral("Qt reads %1 as %2").arg(path, first.typeName())));
    QVERIFY2(holdsQtBinaryValue(text), text.constData());
}

// Every key the app writes, with text values that start like a binary value: Qt escapes those
// ("@@Variant("), reads them back as text, and the rule lets the file through.
void TestSettingsFiles::whatTheAppWritesIsNotRefused()
{
    const QString path = m_dir.filePath(QStringLiteral("app.conf"));
    const QStringList history = {
        QStringLiteral("@Variant(1)"),       QStringLiteral("x@Variant(2)"),
        QStringLiteral("\"@Variant(3)\""),   QStringLiteral(" @Variant(4)"),
        QStringLiteral("x[1, @Variant(5)]"), QStringLiteral("x[1:2, ::-1]")};
    {
        QSettings written(path, QSettings::IniFormat);
        written.setValue(QStringLiteral("started"), true);
        written.setValue(QStringLiteral("recentFiles"),
                         QStringList{QStringLiteral("/a b/@c.json")});
        written.setValue(QStringLiteral("lastFolder"), QStringLiteral("/home/x/@Variant(y)"));
        written.setValue(QStringLiteral("expressionHistory"), history);
        written.setValue(QStringLiteral("geometry"), QByteArray("\x01\xd9\xd0\xcb\0\x03", 6));
        written.setValue(QStringLiteral("theme"), QStringLiteral("dark"));
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY2(text.contains("@@Variant("), text.constData());
    QVERIFY2(!holdsQtBinaryValue(text), text.constData());
    QSettings read(path, QSettings::IniFormat);
    QCOMPARE(read.value(QStringLiteral("expressionHistory")).toStringList(), history);
    QCOMPARE(read.value(QStringLiteral("lastFolder")).toString(),
             QStringLiteral("/home/x/@Variant(y)"));
}

// At start-up: the damaged file fuzz_settings found (a list that claims 2^32 entries) is kept
// aside byte for byte, the message names both names and the reason, and QSettings then starts
// from nothing.
void TestSettingsFiles::aFileWithABinaryValueIsKeptAside()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("SliceScopeTests-tst_settingsfiles"));
    QCoreApplication::setApplicationName(QStringLiteral("SliceScopeTests-tst_settingsfiles"));
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
                        u'/' + QCoreApplication::organizationName();
    QVERIFY(QDir(dir).removeRecursively() && QDir().mkpath(dir));
    const QString path = dir + u'/' + QCoreApplication::applicationName() + QStringLiteral(".conf");
    const QByteArray damaged =
        "[General]\nstarted=true\nhistory=@Variant(\\0\\0\\0\\t\\xfe\\xff\\xff\\xff)\n";
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(damaged);
    file.close();

    const QStringList messages = checkSettingsFiles();
    QCOMPARE(messages.size(), 1);
    const QString aside = path + QStringLiteral(".unreadable-1");
    QVERIFY2(messages[0].contains(path) && messages[0].contains(aside) &&
                 messages[0].contains(QStringLiteral("@Variant")),
             qPrintable(messages[0]));
    QVERIFY(!QFile::exists(path));
    QFile kept(aside);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), damaged);
    QSettings settings;
    QVERIFY(settings.allKeys().isEmpty());
    QVERIFY(checkSettingsFiles().isEmpty());
    QVERIFY(QDir(dir).removeRecursively());
}

QTEST_GUILESS_MAIN(TestSettingsFiles)
#include "tst_settingsfiles.moc"
