"""The Relay standard library text TVM ships in python/tvm/relay/std (prelude.rly, nat.rly),
written out for relaypass with the same definitions: IRModule.import_from_std(name) parses one
of these into a module. (Kept as Python strings so the package needs no data files.)"""

PRELUDE = r"""
def @id[A](%x: A) -> A {
  %x
}

def @compose[A, B, C](%f: fn(B) -> C, %g: fn(A) -> B) {
  fn (%x: A) -> C {
    %f(%g(%x))
  }
}

def @flip[A, B, C](%f: fn(A, B) -> C) -> fn(B, A) -> C {
  fn (%b: B, %a: A) -> C {
    %f(%a, %b)
  }
}

type List[A] {
  Cons(A, List[A]),
  Nil,
}

def @hd[A](%xs: List[A]) -> A {
  match? (%xs) {
    Cons(%x, _) => %x,
  }
}

def @tl[A](%xs: List[A]) -> List[A] {
  match? (%xs) {
    Cons(_, %rest) => %rest,
  }
}

def @nth[A](%xs: List[A], %n: Tensor[(), int32]) -> A {
  if (%n == 0) {
    @hd(%xs)
  } else {
    @nth(@tl(%xs), %n - 1)
  }
}

def @length[A](%xs: List[A]) -> Tensor[(), int32] {
  match (%xs) {
    Cons(_, %rest) => 1 + @length(%rest),
    Nil => 0,
  }
}

def @update[A](%xs: List[A], %n: Tensor[(), int32], %v: A) -> List[A] {
  if (%n == 0) {
    Cons(%v, @tl(%xs))
  } else {
    Cons(@hd(%xs), @update(@tl(%xs), %n - 1, %v))
  }
}

def @map[A, B](%f: fn(A) -> B, %xs: List[A]) -> List[B] {
  match (%xs) {
    Cons(%x, %rest) => Cons(%f(%x), @map(%f, %rest)),
    Nil => Nil,
  }
}

def @foldl[A, B](%f: fn(A, B) -> A, %acc: A, %xs: List[B]) -> A {
  match (%xs) {
    Cons(%x, %rest) => @foldl(%f, %f(%acc, %x), %rest),
    Nil => %acc,
  }
}

def @foldr[A, B](%f: fn(A, B) -> B, %acc: B, %xs: List[A]) -> B {
  match (%xs) {
    Cons(%x, %rest) => %f(%x, @foldr(%f, %acc, %rest)),
    Nil => %acc,
  }
}

def @foldr1[A](%f: fn(A, A) -> A, %xs: List[A]) -> A {
  match? (%xs) {
    Cons(%x, Nil) => %x,
    Cons(%x, %rest) => %f(%x, @foldr1(%f, %rest)),
  }
}

def @sum(%xs: List[Tensor[(), int32]]) {
  let %add_f = fn (%x: Tensor[(), int32], %y: Tensor[(), int32]) -> Tensor[(), int32] {
    %x + %y
  };
  @foldl(%add_f, 0, %xs)
}

def @concat[A](%xs: List[A], %ys: List[A]) -> List[A] {
  @foldr(Cons, %ys, %xs)
}

def @filter[A](%f: fn(A) -> Tensor[(), bool], %xs: List[A]) -> List[A] {
  match (%xs) {
    Cons(%x, %rest) => {
      if (%f(%x)) {
        Cons(%x, @filter(%f, %rest))
      } else {
        @filter(%f, %rest)
      }
    },
    Nil => Nil,
  }
}

def @zip[A, B](%xs: List[A], %ys: List[B]) -> List[(A, B)] {
  match ((%xs, %ys)) {
    (Cons(%x, %x_rest), Cons(%y, %y_rest)) => Cons((%x, %y), @zip(%x_rest, %y_rest)),
    _ => Nil,
  }
}

def @rev[A](%xs: List[A]) -> List[A] {
  @foldl(@flip(Cons), Nil, %xs)
}

def @map_accumr[A, B, C](%f: fn(A, B) -> (A, C), %init: A, %xs: List[B]) -> (A, List[C]) {
  let %updater = fn (%x: B, %acc: (A, List[C])) -> (A, List[C]) {
    let %f_out = %f(%acc.0, %x);
    (%f_out.0, Cons(%f_out.1, %acc.1))
  };
  @foldr(%updater, (%init, Nil), %xs)
}

def @map_accuml[A, B, C](%f: fn(A, B) -> (A, C), %init: A, %xs: List[B]) -> (A, List[C]) {
  let %updater = fn (%acc: (A, List[C]), %x: B) -> (A, List[C]) {
    let %f_out = %f(%acc.0, %x);
    (%f_out.0, Cons(%f_out.1, %acc.1))
  };
  @foldl(%updater, (%init, Nil), %xs)
}

type Option[A] {
  Some(A),
  None,
}

def @unfoldr[A, B](%f: fn(A) -> Option[(A, B)], %seed: A) -> List[B] {
  match (%f(%seed)) {
    Some(%val) => Cons(%val.1, @unfoldr(%f, %val.0)),
    None => Nil,
  }
}

def @unfoldl[A, B](%f: fn(A) -> Option[(A, B)], %seed: A) -> List[B] {
  @rev(@unfoldr(%f, %seed))
}

type Tree[A] {
  Rose(A, List[Tree[A]]),
}

def @tmap[A, B](%f: fn(A) -> B, %t: Tree[A]) -> Tree[B] {
  match (%t) {
    Rose(%v, %sub_trees) => {
      let %list_f = fn (%tt: Tree[A]) -> Tree[B] {
        @tmap(%f, %tt)
      };
      Rose(%f(%v), @map(%list_f, %sub_trees))
    },
  }
}

def @size[A](%t: Tree[A]) -> Tensor[(), int32] {
  match (%t) {
    Rose(_, %sub_trees) => {
      1 + @sum(@map(@size, %sub_trees))
    },
  }
}

def @iterate[A](%f: fn(A) -> A, %n: Tensor[(), int32]) -> fn(A) -> A {
  if (%n == 0) {
    @id
  } else {
    @compose(%f, @iterate(%f, %n - 1))
  }
}
"""

NAT = r"""
type nat {
  zero,
  succ(nat),
}

def @nat_double(%x: nat) -> nat {
  match (%x) {
    zero => zero,
    succ(%y) => succ(succ(@nat_double(%y))),
  }
}

def @nat_add(%x: nat, %y: nat) -> nat {
  match (%x) {
    zero => %y,
    succ(%z) => succ(@nat_add(%z, %y)),
  }
}

def @nat_nth[A](%l: List[A], %n: nat) -> A {
  match (%n) {
    zero => @hd(%l),
    succ(%y) => @nat_nth(@tl(%l), %y),
  }
}

def @nat_update[A](%list: List[A], %index: nat, %value: A) -> List[A] {
  match (%index) {
    zero => Cons(%value, @tl(%list)),
    succ(%index_pred) => @nat_update(@tl(%list), %index_pred, %value),
  }
}

def @nat_iterate[A](%f: fn(A) -> A, %num: nat) -> fn(A) -> A {
  match (%num) {
    zero => fn (%x: A) -> A { %x },
    succ(%y) => fn (%i: A) { %f(@nat_iterate(%f, %y)(%i)) },
  }
}
"""

# TVM's core.rly: the opaque Storage type of the memory operators.
CORE = r"""
extern type Storage
"""

FILES = {"prelude.rly": PRELUDE, "nat.rly": NAT, "core.rly": CORE}
# An ADT and a function each file defines: a module holding both has imported the file (core.rly
# defines no function: its ADT is enough).
MARKERS = {"prelude.rly": ("List", "iterate"), "nat.rly": ("nat", "nat_iterate"),
           "core.rly": ("Storage", None)}
