//! Reading the parsed tree: an element's tag, attributes, children and text as a reader saw
//! it, found without recursion where the tree may be deep.

use markup5ever_rcdom::{Handle, NodeData};

use super::MAX_DEPTH;
use super::escape::{collapse, push_escaped, push_text};

/// The tag of an element to convert; a text node, or an element past [`MAX_DEPTH`], is
/// written to `out` as text instead.
pub(super) fn element(node: &Handle, out: &mut String, depth: usize) -> Option<String> {
    match tag(node) {
        Some(_) if depth > MAX_DEPTH => push_escaped(out, &collapse(&text_of(node))),
        Some(tag) => return Some(tag),
        None => {
            if let NodeData::Text { contents } = &node.data {
                push_text(out, &contents.borrow());
            }
        }
    }
    None
}

pub(super) fn children(node: &Handle) -> Vec<Handle> {
    node.children.borrow().clone()
}

pub(super) fn tag(node: &Handle) -> Option<String> {
    match &node.data {
        NodeData::Element { name, .. } => Some((*name.local).to_ascii_lowercase()),
        _ => None,
    }
}

pub(super) fn tag_is(node: &Handle, name: &str) -> bool {
    matches!(&node.data, NodeData::Element { name: n, .. } if (*n.local).eq_ignore_ascii_case(name))
}

pub(super) fn attr(node: &Handle, name: &str) -> Option<String> {
    match &node.data {
        NodeData::Element { attrs, .. } => {
            attrs.borrow().iter().find(|a| &*a.name.local == name).map(|a| a.value.to_string())
        }
        _ => None,
    }
}

pub(super) fn has_class(node: &Handle, class: &str) -> bool {
    attr(node, "class").is_some_and(|classes| classes.split_whitespace().any(|c| c == class))
}

/// The first element named `name` at or under `node`, in document order.
pub(super) fn find(node: &Handle, name: &str) -> Option<Handle> {
    let mut stack = vec![node.clone()];
    while let Some(current) = stack.pop() {
        if tag_is(&current, name) {
            return Some(current);
        }
        stack.extend(children(&current).into_iter().rev());
    }
    None
}

/// The text under `node` as a reader saw it (no scripts, styles or templates), `br` as a line
/// break. Walks without recursion.
pub(super) fn text_of(node: &Handle) -> String {
    let mut out = String::new();
    let mut stack = vec![node.clone()];
    while let Some(current) = stack.pop() {
        match &current.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            NodeData::Element { name, .. } => {
                let name: &str = &name.local;
                if matches!(name, "script" | "style" | "template" | "head" | "title") {
                    continue;
                }
                if name == "br" {
                    out.push('\n');
                }
                stack.extend(children(&current).into_iter().rev());
            }
            NodeData::Document => stack.extend(children(&current).into_iter().rev()),
            _ => {}
        }
    }
    out
}

/// Elements that sit inside running text.
pub(super) fn is_inline(tag: &str) -> bool {
    matches!(
        tag,
        "a" | "abbr"
            | "acronym"
            | "b"
            | "bdi"
            | "bdo"
            | "big"
            | "br"
            | "cite"
            | "code"
            | "data"
            | "del"
            | "dfn"
            | "em"
            | "font"
            | "i"
            | "ins"
            | "kbd"
            | "label"
            | "mark"
            | "nobr"
            | "q"
            | "s"
            | "samp"
            | "small"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "tt"
            | "u"
            | "var"
            | "wbr"
            | "math"
            | "ruby"
            | "rt"
            | "rp"
            | "output"
            | "meter"
            | "progress"
    )
}
