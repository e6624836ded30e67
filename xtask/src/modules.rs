//! The module tree of one crate, read from its source files with `syn`, and the edges between
//! its modules.
//!
//! How edges are found: every path the code writes that starts with `crate::`, `self::` or
//! `super::`, with the name of a child module, or with a name the module imported with `use`
//! (in `use` items, types, expressions and patterns alike) is resolved segment by segment
//! through the module tree: a segment that names a child module descends into it, one that
//! names something the module imported follows that import (so `crate::Game`, re-exported at
//! the root, leads to `game`), and the first segment that is neither is an item of the module
//! reached. The edge goes from the module holding the path to that module.
//!
//! Limits: paths inside macro invocations (`format!`, `matches!`, ...) are token streams and
//! are not read; glob imports (`use x::*`) count as an edge to `x` but their names are not
//! known, so a later path through one of those names is not followed; a method call names no
//! path, so a module using a value of another module's type without naming it makes no edge;
//! modules and items under `#[cfg(test)]` are left out (test code may depend on anything);
//! `#[path]` is followed relative to the declaring file's directory only.

use anyhow::{Context, Result, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A module's path from the crate root (empty for the root).
pub type ModPath = Vec<String>;

/// One module of a crate.
#[derive(Debug, Default)]
pub struct Module {
    /// The file the module is in (an inline module shares its parent's).
    pub file: PathBuf,
    pub children: BTreeSet<String>,
    /// Names brought in with `use`, each with the path as written.
    imports: BTreeMap<String, Vec<String>>,
    /// Paths as written in the module, for the edges.
    refs: Vec<Vec<String>>,
}

/// A crate's modules, by path.
#[derive(Debug, Default)]
pub struct Crate {
    pub modules: BTreeMap<ModPath, Module>,
}

/// A dependency of module `from` on module `to`, both siblings (children of one parent): the
/// edge between two modules, lifted to the children of their closest common ancestor.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub from: ModPath,
    pub to: ModPath,
    /// Where it was seen: the file and the path as written.
    pub file: PathBuf,
    pub written: String,
}

impl Crate {
    /// Reads the crate whose root file is `root` (`src/lib.rs`, `src/main.rs`, ...).
    pub fn load(root: &Path) -> Result<Crate> {
        let mut krate = Crate::default();
        krate.load_file(root, Vec::new(), true)?;
        Ok(krate)
    }

    /// Every non-test source file of the crate.
    pub fn files(&self) -> BTreeSet<PathBuf> {
        self.modules.values().map(|m| m.file.clone()).collect()
    }

    fn load_file(&mut self, file: &Path, path: ModPath, mod_rs: bool) -> Result<()> {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let parsed =
            syn::parse_file(&text).with_context(|| format!("parsing {}", file.display()))?;
        let dir = if mod_rs {
            file.parent().map(Path::to_path_buf).unwrap_or_default()
        } else {
            let stem = file.file_stem().unwrap_or_default();
            file.parent().unwrap_or(Path::new("")).join(stem)
        };
        self.load_items(&parsed.items, file, &dir, path)
    }

    fn load_items(
        &mut self,
        items: &[syn::Item],
        file: &Path,
        dir: &Path,
        path: ModPath,
    ) -> Result<()> {
        let mut collector = Collector::default();
        let mut nested = Vec::new();
        for item in items {
            if is_test_only(item_attrs(item)) {
                continue;
            }
            match item {
                syn::Item::Mod(m) => nested.push(m),
                syn::Item::Use(u) => collector.use_tree(&u.tree, Vec::new()),
                other => collector.visit_item(other),
            }
        }
        let module = Module {
            file: file.to_path_buf(),
            children: nested.iter().map(|m| m.ident.to_string()).collect(),
            imports: collector.imports,
            refs: collector.refs,
        };
        self.modules.insert(path.clone(), module);
        for m in nested {
            let mut child = path.clone();
            child.push(m.ident.to_string());
            match &m.content {
                Some((_, items)) => {
                    self.load_items(items, file, &dir.join(m.ident.to_string()), child)?
                }
                None => {
                    let (child_file, mod_rs) = match path_attr(&m.attrs) {
                        Some(p) => (file.parent().unwrap_or(Path::new("")).join(p), true),
                        None => find_module_file(dir, &m.ident.to_string())?,
                    };
                    self.load_file(&child_file, child, mod_rs)?;
                }
            }
        }
        Ok(())
    }

    /// Every edge between sibling modules (see [`Edge`]), one per written path.
    pub fn edges(&self) -> Vec<Edge> {
        let mut edges = BTreeSet::new();
        for (from, module) in &self.modules {
            for written in &module.refs {
                let Some(to) = self.resolve(from, written, 0) else {
                    continue;
                };
                let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                // A module may use its ancestors and its descendants: that is one module.
                if common == from.len() || common == to.len() {
                    continue;
                }
                edges.insert(Edge {
                    from: from[..=common].to_vec(),
                    to: to[..=common].to_vec(),
                    file: module.file.clone(),
                    written: written.join("::"),
                });
            }
        }
        edges.into_iter().collect()
    }

    /// The module a path written in module `at` leads to, or `None` for a path outside the
    /// crate (std, another crate) or a local name.
    fn resolve(&self, at: &[String], written: &[String], depth: usize) -> Option<ModPath> {
        if depth > 8 {
            return None;
        }
        let (first, rest) = written.split_first()?;
        let (start, rest): (ModPath, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), rest),
            "self" => (at.to_vec(), rest),
            "super" => {
                let mut up = at.to_vec();
                up.pop()?;
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    up.pop()?;
                    rest = &rest[1..];
                }
                (up, rest)
            }
            _ => (at.to_vec(), written),
        };
        let mut current = start;
        for (i, segment) in rest.iter().enumerate() {
            let module = self.modules.get(&current)?;
            if module.children.contains(segment) {
                current.push(segment.clone());
            } else if let Some(import) = module.imports.get(segment) {
                let mut through = import.clone();
                through.extend_from_slice(&rest[i + 1..]);
                return self.resolve(&current, &through, depth + 1);
            } else if i == 0 && !matches!(first.as_str(), "crate" | "self" | "super") {
                // A name the module neither declares as a module nor imports: a local item,
                // a prelude name or another crate.
                return None;
            } else {
                break;
            }
        }
        Some(current)
    }
}

/// `dir/name.rs` or `dir/name/mod.rs`; the flag says whether it is a `mod.rs`.
fn find_module_file(dir: &Path, name: &str) -> Result<(PathBuf, bool)> {
    let flat = dir.join(format!("{name}.rs"));
    if flat.is_file() {
        return Ok((flat, false));
    }
    let nested = dir.join(name).join("mod.rs");
    if nested.is_file() {
        return Ok((nested, true));
    }
    bail!("module {name} not found in {}", dir.display())
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]`, or a `cfg` that needs `test` (`#[cfg(all(test, feature = "x"))]`).
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta.require_list().is_ok_and(|l| {
                let tokens = l.tokens.to_string();
                tokens
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| w == "test")
                    && !tokens.starts_with("not")
                    && !tokens.starts_with("any")
            })
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| {
        let syn::Meta::NameValue(nv) = &a.meta else {
            return None;
        };
        if !nv.path.is_ident("path") {
            return None;
        }
        match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        }
    })
}

/// Collects one module's imports and written paths (not descending into nested modules, which
/// are modules of their own).
#[derive(Default)]
struct Collector {
    imports: BTreeMap<String, Vec<String>>,
    refs: Vec<Vec<String>>,
}

impl Collector {
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: Vec<String>) {
        let with = |s: String| {
            let mut p = prefix.clone();
            p.push(s);
            p
        };
        match tree {
            syn::UseTree::Path(p) => self.use_tree(&p.tree, with(p.ident.to_string())),
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                // `use a::{self}` names `a` itself.
                let (full, name) = if name == "self" {
                    let last = prefix.last().cloned().unwrap_or_default();
                    (prefix.clone(), last)
                } else {
                    (with(name.clone()), name)
                };
                self.refs.push(full.clone());
                self.imports.insert(name, full);
            }
            syn::UseTree::Rename(r) => {
                let full = with(r.ident.to_string());
                self.refs.push(full.clone());
                self.imports.insert(r.rename.to_string(), full);
            }
            syn::UseTree::Glob(_) => self.refs.push(prefix),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(t, prefix.clone());
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if is_test_only(item_attrs(item)) {
            return;
        }
        match item {
            // A module inside a function body or an impl: not followed (rare).
            syn::Item::Mod(_) => {}
            syn::Item::Use(u) => self.use_tree(&u.tree, Vec::new()),
            other => syn::visit::visit_item(self, other),
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 || matches!(segments[0].as_str(), "crate" | "self" | "super") {
            self.refs.push(segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // The macro's own path (`crate::some_macro!`), not its tokens.
        self.visit_path(&mac.path);
    }
}
