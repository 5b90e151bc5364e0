# The TFLite reader against files of our own and against TFLite's runtime:
# - tflite_make_files: make_tflite_files.py writes one small .tflite file per case, with the
#   Python code flatc generated from our schema (engine/model/tflite.cmake);
# - tflite_litert_run: LiteRT.js (npm @litertjs/core, in SLICESCOPE_NPM_DIR) runs
#   each file on the CPU and records its outputs;
# - tst_model_tflite reads the files back with SliceScope's reader and requires the engine's
#   outputs to equal LiteRT's.
set(SLICESCOPE_TFLITE_FILES ${CMAKE_CURRENT_BINARY_DIR}/tflite_files)
add_test(NAME tflite_make_files
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/make_tflite_files.py
                 ${SLICESCOPE_TFLITE_PYTHON} ${SLICESCOPE_TFLITE_FILES})
set_tests_properties(tflite_make_files PROPERTIES FIXTURES_SETUP tflite_files)
add_test(NAME tflite_litert_run
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tflite_litert_run.sh ${SLICESCOPE_NPM_DIR}
                 ${SLICESCOPE_TFLITE_FILES})
set_tests_properties(tflite_litert_run PROPERTIES FIXTURES_REQUIRED tflite_files
                     FIXTURES_SETUP tflite_litert TIMEOUT 600)
slicescope_add_test(tst_model_tflite SOURCES tst_model_tflite.cpp
                    LIBS slicescope_model ENV "SLICESCOPE_TFLITE_FILES=${SLICESCOPE_TFLITE_FILES}")
target_include_directories(tst_model_tflite PRIVATE ${PROJECT_SOURCE_DIR}/tests/engine)
set_tests_properties(tst_model_tflite PROPERTIES FIXTURES_REQUIRED "tflite_files;tflite_litert")
