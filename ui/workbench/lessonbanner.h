// SPDX-License-Identifier: GPL-3.0-or-later
// The open lesson above the editors: its title, its explanation (scrolling past a few lines, so a
// long one never pushes the window past a small screen's height) and "Next lesson". Hidden for a
// workspace without a title.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace ss::ui {

class LessonBanner : public QWidget
{
    Q_OBJECT
public:
    explicit LessonBanner(QWidget* parent = nullptr);

    /// Shows `title` (hidden when empty) and `explanation` (paragraphs split by blank lines);
    /// "Next lesson" only when `hasNext`.
    void showLesson(const QString& title, const QString& explanation, bool hasNext);

signals:
    /// "Next lesson" was clicked.
    void nextLessonClicked();

private:
    QLabel* m_title;
    QLabel* m_text;
    QPushButton* m_next;
};

} // namespace ss::ui
