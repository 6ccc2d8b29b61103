;; The vector-cache scan with 128-bit SIMD: max over rows [from, to) of dot(row, query) × inverse norm.
;; Rows are float32 (dims a multiple of 4), the query and the inverse norms float64, so each
;; product and sum is the same float64 arithmetic as the plain JavaScript scan.
;; Rebuild engine/trace/wasm/scan.ts from this file with `npm run build:wasm`.
(module
  (memory (export "memory") 1)
  (func (export "scan")
    (param $rows i32) (param $norms i32) (param $query i32) (param $dims i32) (param $from i32) (param $to i32)
    (result f64)
    (local $best f64) (local $slot i32) (local $p i32) (local $qp i32) (local $end i32) (local $rowBytes i32)
    (local $a v128) (local $acc0 v128) (local $acc1 v128) (local $dot f64)
    (local.set $rowBytes (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $best (f64.const -inf))
    (local.set $slot (local.get $from))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $slot) (local.get $to)))
        (local.set $p (i32.add (local.get $rows) (i32.mul (local.get $slot) (local.get $rowBytes))))
        (local.set $end (i32.add (local.get $p) (local.get $rowBytes)))
        (local.set $qp (local.get $query))
        (local.set $acc0 (v128.const i64x2 0 0))
        (local.set $acc1 (v128.const i64x2 0 0))
        (loop $each_four
          ;; four float32 of the row, as two pairs of float64, times four float64 of the query
          (local.set $a (v128.load (local.get $p)))
          (local.set $acc0 (f64x2.add (local.get $acc0)
            (f64x2.mul (f64x2.promote_low_f32x4 (local.get $a)) (v128.load (local.get $qp)))))
          (local.set $acc1 (f64x2.add (local.get $acc1)
            (f64x2.mul
              (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $a) (local.get $a)))
              (v128.load offset=16 (local.get $qp)))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
          (br_if $each_four (i32.lt_u (local.get $p) (local.get $end))))
        (local.set $acc0 (f64x2.add (local.get $acc0) (local.get $acc1)))
        (local.set $dot
          (f64.mul
            (f64.add (f64x2.extract_lane 0 (local.get $acc0)) (f64x2.extract_lane 1 (local.get $acc0)))
            (f64.load (i32.add (local.get $norms) (i32.shl (local.get $slot) (i32.const 3))))))
        (if (f64.gt (local.get $dot) (local.get $best))
          (then (local.set $best (local.get $dot))))
        (local.set $slot (i32.add (local.get $slot) (i32.const 1)))
        (br $each_row)))
    (local.get $best)))
