// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/application.h"

#include "ui/workbench/mainwindow.h"

#include <exception>
#include <new>

namespace ss::ui {

Application::Application(int& argc, char** argv) : QApplication(argc, argv) {}

bool Application::notify(QObject* receiver, QEvent* event)
{
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::bad_alloc&) {
        reportEscapedError(tr("out of memory"));
    } catch (const std::exception& e) {
        reportEscapedError(QString::fromUtf8(e.what()));
    } catch (...) {
        reportEscapedError(tr("an unknown exception"));
    }
    return false;
}

void reportEscapedError(const QString& what)
{
    const QString text =
        QObject::tr("Internal error: %1. The last action did not finish; please save your work "
                    "under a new name and report this.")
            .arg(what);
    for (QWidget* widget : QApplication::topLevelWidgets())
        if (auto* window = qobject_cast<MainWindow*>(widget)) window->showError(text);
}

} // namespace ss::ui
