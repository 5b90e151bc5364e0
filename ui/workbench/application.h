// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's application object. An exception that leaves an event handler or a slot is a bug
// (every handler catches what its work may throw and says it in the window); Qt cannot carry one
// through its event loop, so unhandled it ends the process with SIGABRT and loses the user's work.
// As a last resort, notify() catches it and shows it in every main window's message strip.
#pragma once

#include <QApplication>

namespace ss::ui {

class Application : public QApplication
{
    Q_OBJECT
public:
    Application(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;
};

/// Shows `what` in the message strip of every main window, as an internal error that stopped an
/// action (what Application::notify does with an exception that escaped a handler).
void reportEscapedError(const QString& what);

} // namespace ss::ui
