// SPDX-License-Identifier: GPL-3.0-or-later
// slicescope: the GUI. Everything but the application object lives in the ui library, so the
// GUI tests drive exactly what this program shows.
#include "ui/model/engineclient.h"
#include "ui/workbench/application.h"
#include "ui/workbench/commandline.h"

#include <QApplication>

#include <memory>

namespace {

void nameApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("SliceScope"));
    QCoreApplication::setOrganizationName(QStringLiteral("SliceScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SLICESCOPE_VERSION));
}

} // namespace

int main(int argc, char** argv)
{
    ss::ui::keepFreedMemoryForReuse();
    if (ss::ui::asksForHelpOrVersion(argc, argv)) {
        // Answered without a display. Qt's own options, which --help-all lists, are known to its
        // GUI application alone: one on the minimal platform, which needs no display; the rest
        // need no QApplication.
        const bool qtOptions = ss::ui::asksForQtOptions(argc, argv);
        if (qtOptions) qputenv("QT_QPA_PLATFORM", "minimal");
        const std::unique_ptr<QCoreApplication> app =
            qtOptions ? std::make_unique<QApplication>(argc, argv)
                      : std::make_unique<QCoreApplication>(argc, argv);
        nameApplication();
        return ss::ui::answerHelpOrVersion(*app);
    }
    nameApplication(); // before the log's path is asked for (it is per application)
    if (ss::ui::asksForAutomation(argc, argv))
        ss::ui::sendQtMessagesToLog(ss::ui::automationLogPath());
    // Catches, as a last resort, an exception that escaped an event handler: a message in the
    // window instead of SIGABRT.
    ss::ui::Application app(argc, argv);
    QGuiApplication::setDesktopFileName(QStringLiteral(SLICESCOPE_APP_ID));
    return ss::ui::runGui(app);
}
