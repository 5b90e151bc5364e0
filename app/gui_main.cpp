// SPDX-License-Identifier: GPL-3.0-or-later
// slicescope: the GUI. Everything but the application object lives in the ui library, so the
// GUI tests drive exactly what this program shows.
#include "ui/commandline.h"

#include <QApplication>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("SliceScope"));
    QApplication::setOrganizationName(QStringLiteral("SliceScope"));
    QApplication::setApplicationVersion(QStringLiteral(SLICESCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral(SLICESCOPE_APP_ID));
    return ss::ui::runGui(app);
}
