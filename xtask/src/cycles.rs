//! Module cycles: the strongly connected components (Tarjan's algorithm) of a crate's graph of
//! sibling modules.

use crate::modules::{Edge, ModPath};
use std::collections::BTreeMap;

/// A set of sibling modules that depend on each other, with one written path for each edge
/// inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Sorted.
    pub modules: Vec<ModPath>,
    pub edges: Vec<Edge>,
}

/// Every cycle among the edges, in a stable order.
pub fn find(edges: &[Edge]) -> Vec<Cycle> {
    let mut graph: BTreeMap<&ModPath, Vec<&ModPath>> = BTreeMap::new();
    for e in edges {
        graph.entry(&e.from).or_default().push(&e.to);
        graph.entry(&e.to).or_default();
    }
    let nodes: Vec<&ModPath> = graph.keys().copied().collect();
    let index_of: BTreeMap<&ModPath, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adjacency: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| graph[n].iter().map(|t| index_of[t]).collect())
        .collect();
    let mut cycles: Vec<Cycle> = tarjan(&adjacency)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|component| {
            let mut modules: Vec<ModPath> = component.iter().map(|&i| nodes[i].clone()).collect();
            modules.sort();
            let mut inside: BTreeMap<(&ModPath, &ModPath), &Edge> = BTreeMap::new();
            for e in edges {
                if modules.contains(&e.from) && modules.contains(&e.to) {
                    inside.entry((&e.from, &e.to)).or_insert(e);
                }
            }
            let edges = inside.into_values().cloned().collect();
            Cycle { modules, edges }
        })
        .collect();
    cycles.sort_by(|a, b| a.modules.cmp(&b.modules));
    cycles
}

/// The strongly connected components of a graph given as adjacency lists (iterative, so a
/// deep graph cannot overflow the stack).
fn tarjan(adjacency: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = adjacency.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next neighbour to look at)
        let mut work = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(top) = work.last_mut() {
            let v = top.0;
            if let Some(&w) = adjacency[v].get(top.1) {
                top.1 += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}

#[cfg(test)]
mod tests {
    use super::tarjan;

    #[test]
    fn components_of_a_small_graph() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 alone, 4 <-> 5.
        let graph = vec![vec![1], vec![2], vec![0, 3], vec![], vec![5], vec![4]];
        let mut found: Vec<Vec<usize>> = tarjan(&graph)
            .into_iter()
            .map(|mut c| {
                c.sort();
                c
            })
            .collect();
        found.sort();
        assert_eq!(found, vec![vec![0, 1, 2], vec![3], vec![4, 5]]);
    }
}
