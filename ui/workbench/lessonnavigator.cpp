// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/lessonnavigator.h"

#include "ui/model/lessons.h"
#include "ui/workbench/filecommands.h"
#include "ui/workbench/lessonbanner.h"
#include "ui/workbench/lessongallery.h"
#include "ui/workbench/resultpresenter.h"
#include "ui/workbench/windowmessages.h"
#include "ui/workbench/workspacedocument.h"

#include <algorithm>

namespace ss::ui {

LessonNavigator::LessonNavigator(WorkspaceDocument* document, ResultPresenter* result,
                                 LessonBanner* banner, LessonGallery* gallery, FileCommands* files,
                                 WindowMessages* messages, QObject* parent)
    : QObject(parent), m_document(document), m_result(result), m_banner(banner), m_gallery(gallery),
      m_files(files), m_messages(messages)
{
    connect(m_banner, &LessonBanner::nextLessonClicked, this, &LessonNavigator::openNext);
    connect(m_gallery, &LessonGallery::lessonChosen, this, [this](const QString& name) {
        if (name != m_name && !switchTo(name)) m_gallery->setCurrent(m_name);
    });
}

bool LessonNavigator::open(const QString& name)
{
    const Lesson* lesson = findLesson(name);
    if (!lesson || !lesson->unavailable.isEmpty()) return false;
    const bool shown = lesson->workspace == m_document->workspace();
    m_document->load(lesson->workspace); // a fresh, clean history even when it is already shown
    // A lesson as it comes has nothing to save; its edits do.
    m_document->forgetFile();
    m_messages->updateTitle();
    // After load(): applying a workspace forgets faces meant for another one.
    m_result->setPendingFaces(lesson->workspace, lesson->faces);
    // Nothing to evaluate: the views already show the lesson.
    if (shown) m_result->applyPendingFaces(m_document->workspace());
    return true;
}

bool LessonNavigator::switchTo(const QString& name)
{
    return m_files->maybeSave() && open(name);
}

void LessonNavigator::openNext()
{
    const auto& all = lessons();
    auto it =
        std::find_if(all.begin(), all.end(), [&](const Lesson& l) { return l.name == m_name; });
    for (it = it == all.end() ? all.begin() : it + 1; it != all.end(); ++it)
        if (it->unavailable.isEmpty()) {
            switchTo(it->name);
            return;
        }
}

void LessonNavigator::follow(const Workspace& workspace)
{
    m_name.clear();
    for (const Lesson& lesson : lessons())
        if (!workspace.title.isEmpty() && lesson.workspace.title == workspace.title)
            m_name = lesson.name;
    m_gallery->setCurrent(m_name);
    const auto& all = lessons();
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const Lesson& l) { return l.name == m_name; });
    m_banner->showLesson(workspace.title, workspace.explanation,
                         it != all.end() && it + 1 != all.end());
    m_messages->updateTitle();
}

} // namespace ss::ui
