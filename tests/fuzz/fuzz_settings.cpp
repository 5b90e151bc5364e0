// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as the settings file (~/.config/SliceScope/SliceScope.conf), read as the
// app reads it: the file rule first (checkSettingsFiles), then QSettings and every value as the
// types the app asks for. Nothing may crash or hang. A regular file within the size cap is refused
// only for a binary @Variant value (which Qt 6.4 reads trusting the sizes inside), and is then
// kept aside unchanged; QSettings never sees it.
#include "fuzz_file.h"
#include "protocol/read_file.h"
#include "ui/model/filesaside.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static int argc = 1;
    static char name[] = "fuzz_settings";
    static char* argv[] = {name, nullptr};
    static QCoreApplication* app = [] {
        QStandardPaths::setTestModeEnabled(true);
        auto* a = new QCoreApplication(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("SliceScopeFuzz"));
        QCoreApplication::setApplicationName(QStringLiteral("SliceScopeFuzz"));
        return a;
    }();
    (void)app;
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
                        QStringLiteral("/SliceScopeFuzz");
    const QString path = dir + QStringLiteral("/SliceScopeFuzz.conf");
    {
        static const bool made = QDir().mkpath(dir);
        if (!made) std::abort();
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) std::abort();
        file.write(reinterpret_cast<const char*>(data), qint64(size));
    }
    const QStringList problems = ss::ui::checkSettingsFiles();
    const QByteArrayView text(data, size);
    if (problems.isEmpty() == ss::ui::holdsQtBinaryValue(text)) std::abort();
    if (!problems.isEmpty()) {
        QFile aside(path + QStringLiteral(".unreadable-1"));
        if (QFile::exists(path) || !aside.open(QIODevice::ReadOnly) || aside.readAll() != text)
            std::abort(); // not kept aside as it was
        aside.close();
        aside.remove();
    }
    QSettings settings;
    for (const QString& key : settings.allKeys()) {
        const QVariant value = settings.value(key);
        (void)value.toBool();
        (void)value.toStringList();
        (void)value.toByteArray();
        (void)value.toInt();
    }
    return 0;
}
