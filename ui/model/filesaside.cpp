// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/filesaside.h"

#include "core/error.h"
#include "protocol/read_file.h"

#include <QCoreApplication>
#include <QFile>
#include <QObject>
#include <QStandardPaths>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ss::ui {

QString moveAside(const QString& path, QString* why)
{
    const QByteArray from = QFile::encodeName(path);
    for (int n = 1; n < 10000; ++n) {
        const QByteArray to = QFile::encodeName(path + QStringLiteral(".unreadable-%1").arg(n));
        // RENAME_NOREPLACE: a name already taken is never replaced.
        if (::renameat2(AT_FDCWD, from.constData(), AT_FDCWD, to.constData(), RENAME_NOREPLACE) ==
            0)
            return QFile::decodeName(to);
        if (errno == EEXIST) continue;
        if (errno != EINVAL) {
            *why = QString::fromLocal8Bit(std::strerror(errno));
            return {};
        }
        // A file system without RENAME_NOREPLACE: a hard link fails on a taken name too.
        if (::link(from.constData(), to.constData()) == 0) {
            if (::unlink(from.constData()) == 0) return QFile::decodeName(to);
            *why = QString::fromLocal8Bit(std::strerror(errno));
            ::unlink(to.constData());
            return {};
        }
        if (errno == EEXIST) continue;
        *why = QString::fromLocal8Bit(std::strerror(errno));
        return {};
    }
    *why = QObject::tr("every name for a copy is taken");
    return {};
}

namespace {

int digitValue(char c, int base)
{
    int d = -1;
    if (c >= '0' && c <= '9')
        d = c - '0';
    else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
    return d < base ? d : -1;
}

bool isIniSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// The next line of an INI text as QSettings (Qt 6.4, QConfFileSettingsPrivate::readIniLine)
/// splits it: leading white space skipped, ";" comments at a line's start skipped, a line break
/// inside quotes or after a backslash kept in the line, an unquoted ";" ending it. `equals` is
/// the offset of its first unquoted "=", or -1.
bool nextIniLine(QByteArrayView data, qsizetype& pos, QByteArrayView& line, qsizetype& equals)
{
    bool inQuotes = false;
    equals = -1;
    qsizetype start = pos;
    while (start < data.size() && isIniSpace(data[start]))
        ++start;
    qsizetype i = start;
    while (i < data.size()) {
        const char c = data[i++];
        if (c == '=') {
            if (!inQuotes && equals == -1) equals = i - 1;
        } else if (c == '\n' || c == '\r') {
            if (i == start + 1)
                ++start;
            else if (!inQuotes) {
                --i;
                break;
            }
        } else if (c == '\\') {
            if (i < data.size()) {
                const char escaped = data[i++];
                if (i < data.size() &&
                    ((escaped == '\n' && data[i] == '\r') || (escaped == '\r' && data[i] == '\n')))
                    ++i;
            }
        } else if (c == '"') {
            inQuotes = !inQuotes;
        } else if (c == ';') {
            if (i == start + 1) {
                while (i < data.size() && data[i] != '\n' && data[i] != '\r')
                    ++i;
                while (i < data.size() && isIniSpace(data[i]))
                    ++i;
                start = i;
            } else if (!inQuotes) {
                --i;
                break;
            }
        }
    }
    pos = i;
    line = data.sliced(start, i - start);
    if (equals >= 0) equals -= start;
    return !line.isEmpty();
}

/// The elements of one INI value as QSettings (QSettingsPrivate::iniUnescapedStringList) reads
/// them: escapes decoded (the named ones; \x with any number of hex digits and \ with octal ones,
/// kept in 16 bits as Qt keeps them; any other escaped character, a line break included, gives
/// nothing), quotes dropped, unquoted commas between elements, spaces skipped at an element's
/// start and after a closing quote. Only ASCII is kept: whatever UTF-8 decodes to does not
/// matter to the question asked of them, which starts with "@".
std::vector<std::u16string> iniValueElements(QByteArrayView value)
{
    static constexpr std::string_view named = "abfnrtv\"?'\\";
    static constexpr std::string_view meaning = "\a\b\f\n\r\t\v\"?'\\";
    std::vector<std::u16string> elements(1);
    bool inQuotes = false;
    qsizetype i = 0;
    const auto skipSpaces = [&] {
        while (i < value.size() && (value[i] == ' ' || value[i] == '\t'))
            ++i;
    };
    skipSpaces();
    while (i < value.size()) {
        const char c = value[i++];
        std::u16string& element = elements.back();
        if (c == '"') {
            inQuotes = !inQuotes;
            if (!inQuotes) skipSpaces();
        } else if (c == ',' && !inQuotes) {
            elements.emplace_back();
            skipSpaces();
        } else if (c != '\\') {
            if (static_cast<unsigned char>(c) < 0x80) element += char16_t(c);
        } else if (i < value.size()) {
            const char e = value[i++];
            const int base = e == 'x' ? 16 : 8;
            if (const auto at = named.find(e); at != std::string_view::npos) {
                element += char16_t(meaning[at]);
            } else if ((e == 'x' && i < value.size() && digitValue(value[i], 16) >= 0) ||
                       digitValue(e, 8) >= 0) {
                char16_t code = e == 'x' ? 0 : char16_t(e - '0');
                for (int d; i < value.size() && (d = digitValue(value[i], base)) >= 0; ++i)
                    code = char16_t(code * base + d);
                element += code;
            } else if ((e == '\n' || e == '\r') && i < value.size() &&
                       (value[i] == '\n' || value[i] == '\r') && value[i] != e) {
                ++i; // an escaped line break of two characters
            }
        }
    }
    return elements;
}

} // namespace

bool holdsQtBinaryValue(QByteArrayView settingsText)
{
    if (settingsText.startsWith("\xef\xbb\xbf")) settingsText = settingsText.sliced(3);
    QByteArrayView line;
    qsizetype equals = -1;
    for (qsizetype pos = 0; nextIniLine(settingsText, pos, line, equals);) {
        if (equals < 0 || line.startsWith('[')) continue; // a section's name, or no value
        for (const std::u16string& element : iniValueElements(line.sliced(equals + 1)))
            if (element.starts_with(u"@Variant(")) return true;
    }
    return false;
}

QStringList checkSettingsFiles()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    const QString organization = QCoreApplication::organizationName();
    QStringList files;
    if (!organization.isEmpty())
        files << dir + u'/' + organization + u'/' + QCoreApplication::applicationName() +
                     QStringLiteral(".conf")
              << dir + u'/' + organization + QStringLiteral(".conf");
    QStringList messages;
    for (const QString& path : files) {
        struct stat info = {};
        if (::lstat(QFile::encodeName(path).constData(), &info) != 0) continue; // none: fine
        QString why;
        try {
            if (!holdsQtBinaryValue(readRegularFile(path, maxTextFileBytes()))) continue;
            why = QObject::tr("a value in Qt's binary form, @Variant(...), which SliceScope never "
                              "writes and Qt reads without checking the sizes inside it");
        } catch (const OpError& e) {
            why = QString::fromUtf8(e.what());
        }
        QString moveError;
        const QString aside = moveAside(path, &moveError);
        messages << (aside.isEmpty()
                         ? QObject::tr("The settings %1 do not read (%2) and could not be moved "
                                       "aside (%3).")
                               .arg(path, why, moveError)
                         : QObject::tr("The settings %1 do not read (%2). They are kept as %3; "
                                       "SliceScope starts with its default settings.")
                               .arg(path, why, aside));
    }
    return messages;
}

} // namespace ss::ui
