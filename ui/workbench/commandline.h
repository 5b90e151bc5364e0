// SPDX-License-Identifier: GPL-3.0-or-later
// `slicescope [FILE.npy|FILE.json|MODEL] [--shape S] [--dtype D] [--expr EXPR] [--lesson NAME]
// [--exercise NAME] [--screenshot FILE.png | --export-image FILE | --export-animation FILE]
// [--view V] [--scale N] [--speed MS] [--presentation]`: everything main() does, here so that
// tests can drive it.
#pragma once

#include <QString>

class QApplication;
class QCoreApplication;

namespace ss::ui {

class MainWindow;

struct StartOptions
{
    QString file;
    QString shape;
    QString dtype;
    QString expr;
    QString lesson;
    QString screenshot;
    QString exercise; ///< --exercise NAME: open the exercise dock at this exercise
    QString compare;  ///< --compare FILE.npy: compare the output with this actual one
    /// --export-image / --export-animation FILE with --view, --scale, --speed; --presentation.
    QString exportImage;
    QString exportAnimation;
    QString view;
    double scale = 1.0;
    int speedMs = 0;
    bool presentation = false;

    /// Whether the run only makes a file and exits (no session of its own, no recovery).
    bool makesFile() const
    {
        return !screenshot.isEmpty() || !exportImage.isEmpty() || !exportAnimation.isEmpty();
    }
};

/// Sets the window up as the options say. With none of them, the very first start opens the
/// first lesson. Returns false with the reason in `error` (an unknown lesson, a bad shape...).
bool applyStartOptions(MainWindow& window, const StartOptions& options, QString* error);

/// What runGui does before showing the window. With --screenshot or an export: the options only
/// (no session of its own, no recovery), false with `error` when they fail, except for a file
/// that does not open. Otherwise: the window state of the last session, the offer to recover a
/// killed session's work, then the options. What fails and is not refused is shown in the
/// window (and left in `error`), and the result is true: a desktop entry's `slicescope %f` has
/// no terminal to print to, and a screenshot shows what the window would.
bool prepareWindow(MainWindow& window, const StartOptions& options, QString* error);

/// Shows the window at 1440 x 900 and waits until the newest evaluation and the views'
/// background work are on screen (at most `timeoutMs`). False with `error` if they are not.
bool showSettled(MainWindow& window, int timeoutMs, QString* error);

/// Shows the window at 1440 x 900, waits until the newest evaluation and the views' background
/// work are on screen (at most `timeoutMs`), and saves the window as a PNG. False with `error` on
/// failure.
bool saveScreenshot(MainWindow& window, const QString& path, int timeoutMs, QString* error);

/// Whether the command line asks for --help, --help-all or --version: those are answered before
/// the GUI application exists, so that they work without a display.
bool asksForHelpOrVersion(int argc, char** argv);
/// Whether it asks for --help-all: Qt's own options, which only a QApplication knows (one on
/// Qt's minimal platform, which needs no display).
bool asksForQtOptions(int argc, char** argv);
/// Whether the command line asks for --automation: Qt's messages then go to the log from
/// before the application object exists (it warns while it is made, e.g. about
/// XDG_RUNTIME_DIR).
bool asksForAutomation(int argc, char** argv);
/// Prints the help (--help-all: with Qt's own options, `app` then being a QApplication) or the
/// version; returns the exit status.
int answerHelpOrVersion(const QCoreApplication& app);

/// Where --automation sends Qt's own messages: `automation.log` in the per-user cache
/// (~/.cache/SliceScope/SliceScope/automation.log on Linux).
QString automationLogPath();
/// From now on Qt's messages (qWarning and Qt's own warnings) go to `path`, appended, never to
/// stderr: an automation client that does not read stderr would otherwise block the channel
/// once the pipe is full. Dropped if the file cannot be opened.
void sendQtMessagesToLog(const QString& path);

/// Gives Qt's global thread pool (the raster engine's large fills wait on it) only threads the
/// system grants now, started and kept for good, so that no fill waits for a thread that was
/// refused (a process-count limit hung the window). Returns how many; 0 when the system grants
/// none (the window cannot be drawn).
int keepQtDrawingThreads();

/// Parses the command line, builds the window and runs. Returns the process exit status: 0,
/// 1 when the screenshot could not be made, 2 for a usage error (a bad option, or with
/// --screenshot options that cannot be applied).
int runGui(QApplication& app);

} // namespace ss::ui
