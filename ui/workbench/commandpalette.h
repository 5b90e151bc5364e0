// SPDX-License-Identifier: GPL-3.0-or-later
// The command palette (Ctrl+K, Ctrl+Shift+P): every action of the window's menus, every op,
// lesson and exercise in one list, fuzzy-filtered as the user types; Enter runs the first (or
// the chosen) entry, Esc closes. Keyboard only: the filter keeps the focus, Up and Down choose.
#pragma once

#include <QDialog>

#include <functional>
#include <vector>

class QLineEdit;
class QListWidget;

namespace ss::ui {

class MainWindow;

class CommandPalette : public QDialog
{
    Q_OBJECT
public:
    /// One thing the palette can run.
    struct Entry
    {
        QString kind; ///< "Action", "Op", "Lesson", "Exercise"
        QString text; ///< what the user reads and filters by
        std::function<void()> run;
    };

    explicit CommandPalette(MainWindow& window);

    /// Collects the entries afresh (actions enabled now, lessons and exercises available), clears
    /// the filter and shows the palette with the filter focused.
    void open();
    /// The entries that match `filter`, best first: every character of the filter in order
    /// (case ignored), closer together and at word starts ranking higher. All of them, in their
    /// order, for an empty filter.
    static std::vector<int> match(const std::vector<Entry>& entries, const QString& filter);

    QLineEdit* filterField() const { return m_filter; }
    QListWidget* list() const { return m_list; }
    /// The texts listed now ("Action: Save", "Op: gather", ...), in order.
    QStringList shownTexts() const;
    /// Runs the chosen entry (the first when none is chosen) after closing.
    void runCurrent();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void collect();
    void refilter();

    MainWindow& m_window;
    QLineEdit* m_filter;
    QListWidget* m_list;
    std::vector<Entry> m_entries;
};

} // namespace ss::ui
