// SPDX-License-Identifier: GPL-3.0-or-later
// The open lesson above the editors: its title, its explanation (shown whole, as tall as its
// lines at the banner's width, scrolling only past a third of the window's height, so a long one
// never pushes the window past a small screen's height) and "Next lesson". Hidden for a
// workspace without a title.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QScrollArea;

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

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// The explanation's height: its lines at the current width, within the limits above.
    void fitText();

    QLabel* m_title;
    QScrollArea* m_scroll;
    QLabel* m_text;
    QPushButton* m_next;
};

} // namespace ss::ui
