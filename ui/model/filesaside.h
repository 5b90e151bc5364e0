// SPDX-License-Identifier: GPL-3.0-or-later
// Files of the user's that do not read are kept, not replaced: moved aside to a name not taken
// yet, so that the app can start afresh and the user still has what was there.
#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringList>

namespace ss::ui {

/// Moves `path` (a file, FIFO, device node or symlink: only the name moves) to the first
/// "<path>.unreadable-N" not taken, never replacing anything. Returns the new name, or "" with
/// the reason in `why`.
QString moveAside(const QString& path, QString* why);

/// Whether QSettings would read a value of this INI text through QDataStream (a value or list
/// element that starts "@Variant("): Qt 6.4 then believes the sizes inside and asks for that
/// much memory at once (34 GB for a 200-byte damaged file, which aborts under AddressSanitizer).
/// SliceScope never writes such a value. Lines, escapes, quotes and commas are read by Qt's rules,
/// so text QSettings writes ("@@Variant(...)", its spelling of text that starts so) is not taken
/// for one.
bool holdsQtBinaryValue(QByteArrayView settingsText);

/// QSettings reads its files when it is made and would wait on a FIFO or read /dev/zero without
/// end: before the first QSettings, the user's settings files (the application's and the
/// organisation's, in QStandardPaths::GenericConfigLocation) are checked under the app's file rule
/// (read_file.h: a regular file within maxTextFileBytes()); one that does not read, or that
/// holdsQtBinaryValue(), is moved aside. Returns a message for the window per file moved (or
/// that could not be).
QStringList checkSettingsFiles();

} // namespace ss::ui
