/**
 * Scales `vector` in place to length 1 (L2) and returns it; all zeros stay zeros. Every embedder
 * returns unit vectors, so that the stores can take the dot product as the cosine similarity.
 * @example scaleToUnitLength(Float32Array.of(3, 4)) // [0.6, 0.8]
 */
export function scaleToUnitLength(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  }
  return vector;
}
