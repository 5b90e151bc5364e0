// SPDX-License-Identifier: GPL-3.0-or-later
// Which lesson is open and moving between lessons: a lesson stays open while its title is on
// show (through edits, undo and redo), the banner and the gallery follow it, and "Next lesson"
// opens the next one this build has.
#pragma once

#include <QObject>

namespace ss::ui {

class FileCommands;
class LessonBanner;
class LessonGallery;
class ResultPresenter;
class WindowMessages;
class WorkspaceDocument;
struct Workspace;

class LessonNavigator : public QObject
{
    Q_OBJECT
public:
    /// Lessons open into `document`, their faces through `result`; `banner` and `gallery`
    /// show the open one; `files` asks before work would be replaced; `messages` keeps the title.
    LessonNavigator(WorkspaceDocument* document, ResultPresenter* result, LessonBanner* banner,
                    LessonGallery* gallery, FileCommands* files, WindowMessages* messages,
                    QObject* parent);

    /// Opens a built-in lesson by name; false if there is none (or this build lacks its op).
    /// Opening is not an undo step: the history starts afresh (clean). Never asks.
    bool open(const QString& name);
    /// A lesson chosen by the user: "Save changes?" first, then open().
    bool switchTo(const QString& name);
    /// The next available lesson after the open one, or the first when none is open.
    void openNext();
    /// The open lesson's name, empty when none is.
    QString current() const { return m_name; }
    /// The document shows `workspace` now: the lesson whose title it carries is the open one.
    void follow(const Workspace& workspace);

private:
    WorkspaceDocument* m_document;
    ResultPresenter* m_result;
    LessonBanner* m_banner;
    LessonGallery* m_gallery;
    FileCommands* m_files;
    WindowMessages* m_messages;
    QString m_name;
};

} // namespace ss::ui
