/**
 * Gauss-Legendre quadrature on [-1, 1], and the weights of cumulative integrals on the same nodes:
 * the numerical integration the exact prices are taken with.
 */

export const ORDER = 10;
export const GAUSS = gaussLegendre(ORDER);
/** CUMULATIVE[j * ORDER + l]: the weight of node l in ∫_{-1}^{x_j} (Lagrange interpolation on the nodes). */
export const CUMULATIVE = integrationMatrix(GAUSS.x);

/** Gauss-Legendre nodes and weights on [-1, 1] (Newton's method on the Legendre polynomial). */
function gaussLegendre(order: number): { x: Float64Array; w: Float64Array } {
  const x = new Float64Array(order);
  const w = new Float64Array(order);
  for (let i = 0; i < order; i++) {
    let z = Math.cos((Math.PI * (i + 0.75)) / (order + 0.5));
    let derivative = 0;
    for (let iteration = 0; iteration < 100; iteration++) {
      let p0 = 1;
      let p1 = z;
      for (let k = 2; k <= order; k++) {
        const p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      derivative = (order * (z * p1 - p0)) / (z * z - 1);
      const step = p1 / derivative;
      z -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    x[order - 1 - i] = z;
    w[order - 1 - i] = 2 / ((1 - z * z) * derivative * derivative);
  }
  return { x, w };
}

/**
 * M[j][l] = ∫_{-1}^{x_j} L_l(x) dx for the Lagrange basis on the nodes: solved from the monomials
 * (M V = A with V[l][m] = x_l^m and A[j][m] = ∫_{-1}^{x_j} x^m dx).
 */
function integrationMatrix(nodes: Float64Array): Float64Array {
  const p = nodes.length;
  // Solve V^T M^T = A^T column by column: for each j, Σ_l M[j][l] x_l^m = A[j][m] for every m.
  const out = new Float64Array(p * p);
  for (let j = 0; j < p; j++) {
    const xj = nodes[j] as number;
    const matrix = Array.from({ length: p }, (_, m) => [
      ...Array.from(nodes, (xl) => xl ** m),
      (xj ** (m + 1) - (-1) ** (m + 1)) / (m + 1),
    ]);
    const solution = solve(matrix);
    for (let l = 0; l < p; l++) out[j * p + l] = solution[l] as number;
  }
  return out;
}

/** Gaussian elimination with partial pivoting on an augmented matrix. */
function solve(rows: number[][]): number[] {
  const n = rows.length;
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++)
      if (Math.abs((rows[r] as number[])[c] as number) > Math.abs((rows[pivot] as number[])[c] as number)) pivot = r;
    [rows[c], rows[pivot]] = [rows[pivot] as number[], rows[c] as number[]];
    const top = rows[c] as number[];
    for (let r = c + 1; r < n; r++) {
      const row = rows[r] as number[];
      const factor = (row[c] as number) / (top[c] as number);
      for (let k = c; k <= n; k++) row[k] = (row[k] as number) - factor * (top[k] as number);
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = rows[r] as number[];
    let sum = row[n] as number;
    for (let k = r + 1; k < n; k++) sum -= (row[k] as number) * (x[k] as number);
    x[r] = sum / (row[r] as number);
  }
  return x;
}
